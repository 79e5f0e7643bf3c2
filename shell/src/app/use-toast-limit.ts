import { useEffect } from 'react';
import toast, { useToasterStore } from 'react-hot-toast';

/** At most `limit` toasts on screen: the oldest visible ones are dismissed first. */
export function useToastLimit(limit: number): void {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((item) => item.visible)
      .slice(limit)
      .forEach((item) => toast.dismiss(item.id));
  }, [toasts, limit]);
}
