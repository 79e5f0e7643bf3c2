import { isValidHours } from '@time-wallet/shared-ui/lib';

export type MascotMood = 'neutral' | 'happy' | 'angry' | 'sleepy';
export type WalletMood = Exclude<MascotMood, 'sleepy'>;

/** Hours spent today from which the mascot changes mood. */
export const MOOD_THRESHOLDS = { happyFrom: 5, angryFrom: 8 } as const;

export const MOOD_MESSAGES: Readonly<Record<WalletMood, string>> = {
  neutral: "You're managing your time well!",
  happy: "You're working hard! Remember to take a break!",
  angry: "You're overworking! Remember to rest well!",
};

export function moodForHours(spentHours: number): { mood: WalletMood; message: string } {
  const hours = isValidHours(spentHours) ? spentHours : 0;
  const mood: WalletMood =
    hours >= MOOD_THRESHOLDS.angryFrom ? 'angry' : hours >= MOOD_THRESHOLDS.happyFrom ? 'happy' : 'neutral';
  return { mood, message: MOOD_MESSAGES[mood] };
}
