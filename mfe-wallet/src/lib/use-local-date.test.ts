import { act, renderHook } from '@testing-library/react';
import { useLocalDate } from './use-local-date';

afterEach(() => jest.useRealTimers());

it('moves on to the next day at local midnight', () => {
  jest.useFakeTimers({ now: new Date(2026, 10, 20, 23, 59, 30) });
  const { result } = renderHook(() => useLocalDate());
  expect(result.current).toBe('2026-11-20');

  act(() => jest.advanceTimersByTime(20_000));
  expect(result.current).toBe('2026-11-20');

  act(() => jest.advanceTimersByTime(15_000));
  expect(result.current).toBe('2026-11-21');
});

it('re-reads the clock when the tab becomes visible again', () => {
  jest.useFakeTimers({ now: new Date(2026, 10, 20, 22, 0) });
  const { result } = renderHook(() => useLocalDate());
  // A sleeping machine runs no timers: the clock jumps without the midnight timer firing.
  jest.setSystemTime(new Date(2026, 10, 21, 7, 30));
  expect(result.current).toBe('2026-11-20');

  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
  expect(result.current).toBe('2026-11-21');
});
