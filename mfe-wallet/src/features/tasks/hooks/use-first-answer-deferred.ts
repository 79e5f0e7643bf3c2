import { useDeferredValue } from 'react';

/**
 * A list query's result with its first answer drawn at a lower priority. A store's update draws at once, in one task,
 * so a list's first answer drew every row in one long task; deferred, React draws them in slices, yielding to the
 * browser between them, and the list shows its loading state until then. Once the list has data, later answers draw
 * at once, as before: a lagging copy would let a row's own state (a change on its way, just ended) and the data it is
 * given disagree for a draw, and the row would flicker.
 */
export function useFirstAnswerDeferred<Result extends { data?: unknown }>(result: Result): Result {
  const deferred = useDeferredValue(result);
  return deferred.data === undefined ? deferred : result;
}
