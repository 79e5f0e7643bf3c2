import type { DeviceKind } from '../lib/device-name';

/** A phone or a computer outline in the text colour; decorative, the device name says the same. */
export function DeviceIcon({ kind, className }: { kind: DeviceKind; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {kind === 'phone' ? (
        <>
          <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
          <path d="M10.5 18.5h3" />
        </>
      ) : (
        <>
          <rect x="2.5" y="4" width="19" height="12.5" rx="1.5" />
          <path d="M8 20.5h8M12 16.5v4" />
        </>
      )}
    </svg>
  );
}
