/** A luggage-tag shape in the tag's colour. */
export function TagIcon({ color }: { color: string }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        d="M3 4.5A1.5 1.5 0 0 1 4.5 3h7.38a1.5 1.5 0 0 1 1.06.44l7.62 7.62a1.5 1.5 0 0 1 0 2.12l-7.38 7.38a1.5 1.5 0 0 1-2.12 0L3.44 12.94A1.5 1.5 0 0 1 3 11.88Z"
        style={{ fill: color }}
      />
      <circle cx="8" cy="8" r="1.75" fill="#fff" />
    </svg>
  );
}
