import { useId } from 'react';
import type { ReactNode } from 'react';
import type { MascotMood } from '../../lib/mood';
import styles from './mascot.module.css';

export interface MascotProps {
  mood: MascotMood;
  /** Width and height in pixels, or a CSS length. */
  size?: number | string;
  /** Accessible name; defaults to a description of the mood. */
  title?: string;
  className?: string;
}

export const MASCOT_NAMES: Readonly<Record<MascotMood, string>> = {
  neutral: 'Mascot looking calm',
  happy: 'Mascot looking cheerful',
  angry: 'Mascot looking upset',
  sleepy: 'Mascot looking sleepy',
};

const INK = '#1F2A27';
const FACE = '#FFF8EC';

const BODY_COLORS: Readonly<Record<MascotMood, { body: string; shade: string }>> = {
  neutral: { body: '#2D967C', shade: '#1F6E5B' },
  happy: { body: '#F2B53A', shade: '#C98A12' },
  angry: { body: '#E0533D', shade: '#A8321F' },
  sleepy: { body: '#8C8FD6', shade: '#5F62B0' },
};

const feature = {
  fill: 'none',
  stroke: INK,
  strokeWidth: 3.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

const FACES: Readonly<Record<MascotMood, ReactNode>> = {
  neutral: (
    <>
      <circle cx="48" cy="61" r="4.5" fill={INK} />
      <circle cx="72" cy="61" r="4.5" fill={INK} />
      <circle cx="49.5" cy="59.5" r="1.4" fill={FACE} />
      <circle cx="73.5" cy="59.5" r="1.4" fill={FACE} />
      <path d="M51 76 Q60 82 69 76" {...feature} />
    </>
  ),
  happy: (
    <>
      <path d="M42 63 Q48 54 54 63" {...feature} />
      <path d="M66 63 Q72 54 78 63" {...feature} />
      <ellipse cx="40" cy="72" rx="5" ry="3" fill="#F58BA0" opacity="0.7" />
      <ellipse cx="80" cy="72" rx="5" ry="3" fill="#F58BA0" opacity="0.7" />
      <path d="M47 71 Q60 92 73 71 Z" fill={INK} stroke={INK} strokeWidth="2" strokeLinejoin="round" />
      <path d="M53 80 Q60 75 67 80 Q60 87 53 80 Z" fill="#F26B7A" />
      <path d="M110 30 l2 5 l5 2 l-5 2 l-2 5 l-2 -5 l-5 -2 l5 -2 Z" fill="#F2B53A" />
    </>
  ),
  angry: (
    <>
      <path d="M40 51 L55 57" {...feature} strokeWidth={4} />
      <path d="M80 51 L65 57" {...feature} strokeWidth={4} />
      <circle cx="48" cy="63" r="4" fill={INK} />
      <circle cx="72" cy="63" r="4" fill={INK} />
      <path d="M49 81 Q60 71 71 81" {...feature} />
      <g stroke="#A8321F" strokeWidth="3" strokeLinecap="round" fill="none" transform="translate(12 10)">
        <path d="M92 22 q4 4 0 8" />
        <path d="M100 20 q-4 4 0 8" />
        <path d="M90 34 q4 -4 8 0" />
      </g>
    </>
  ),
  sleepy: (
    <>
      <path d="M42 61 Q48 67 54 61" {...feature} />
      <path d="M66 61 Q72 67 78 61" {...feature} />
      <ellipse cx="60" cy="78" rx="3.5" ry="4.5" fill={INK} />
      <g fill="#5F62B0" fontFamily="system-ui, sans-serif" fontWeight="700">
        <text x="103" y="47" fontSize="12">
          z
        </text>
        <text x="108" y="31" fontSize="16">
          Z
        </text>
      </g>
    </>
  ),
};

/** The Time Wallet mascot: a round alarm-clock creature whose face and colour follow its mood. */
export function Mascot({ mood, size = 120, title, className }: MascotProps) {
  const titleId = useId();
  const { body, shade } = BODY_COLORS[mood];
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      viewBox="0 0 120 120"
      width={size}
      height={size}
      className={[styles.mascot, className].filter(Boolean).join(' ')}
    >
      <title id={titleId}>{title ?? MASCOT_NAMES[mood]}</title>
      <g fill={shade}>
        <path d="M22 32 A14 14 0 0 1 42 14 Z" />
        <path d="M98 32 A14 14 0 0 0 78 14 Z" />
        <rect x="40" y="100" width="12" height="12" rx="5" />
        <rect x="68" y="100" width="12" height="12" rx="5" />
        <rect x="56" y="12" width="8" height="10" rx="3" />
      </g>
      <circle cx="60" cy="64" r="44" fill={body} stroke={shade} strokeWidth="4" />
      <circle cx="60" cy="66" r="33" fill={FACE} />
      <g fill={shade} opacity="0.55">
        <rect x="58.5" y="35" width="3" height="6" rx="1.5" />
        <rect x="58.5" y="91" width="3" height="6" rx="1.5" />
        <rect x="29" y="64.5" width="6" height="3" rx="1.5" />
        <rect x="85" y="64.5" width="6" height="3" rx="1.5" />
      </g>
      {FACES[mood]}
    </svg>
  );
}
