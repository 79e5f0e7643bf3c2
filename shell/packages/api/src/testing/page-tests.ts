import { act } from '@testing-library/react';
import toast from 'react-hot-toast';
import { resetTestEnvironment } from './mock-api';

export interface PageTestOptions {
  /** A stored token, as a signed-in visit has. */
  token?: string;
  /** Jest's fake timers for each test (true, or the moment the clock starts at). */
  fakeTimers?: boolean | Date;
}

/**
 * The hooks a page's component tests share: a clean runtime config and storage (and a token, fake timers) before each
 * test; after it, no toast left on screen, real timers and every spy restored.
 */
export function usePageTestEnvironment({ token, fakeTimers = false }: PageTestOptions = {}): void {
  beforeEach(() => {
    if (fakeTimers) jest.useFakeTimers(fakeTimers instanceof Date ? { now: fakeTimers } : {});
    resetTestEnvironment();
    if (token) window.localStorage.setItem('token', token);
  });
  afterEach(() => {
    act(() => toast.remove());
    if (fakeTimers) jest.useRealTimers();
    jest.restoreAllMocks();
  });
}
