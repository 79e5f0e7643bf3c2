import { setImmediate as nextTurn } from 'node:timers/promises';

/** Items written to text per chunk: a few milliseconds of work between two turns of the event loop. */
export const TEXT_BATCH_SIZE = 200;

/**
 * The text of every item of every page, a batch of items per chunk, with a turn of the event loop after each chunk:
 * a large export is written between other requests instead of ahead of them. Pages are pulled only as the chunks are
 * consumed, so a slow reader holds one page, not the whole set.
 */
export async function* textInBatches<T>(
  pages: AsyncIterable<T[]>,
  toText: (item: T) => string,
  batchSize = TEXT_BATCH_SIZE,
): AsyncGenerator<string> {
  for await (const page of pages) {
    for (let index = 0; index < page.length; index += batchSize) {
      let text = '';
      for (const item of page.slice(index, index + batchSize)) text += toText(item);
      yield text;
      await nextTurn();
    }
  }
}

/** The items of a JSON array (without its brackets), separated by commas, in batches as above. */
export function jsonArrayItems<T>(
  pages: AsyncIterable<T[]>,
  toJson: (item: T) => string,
): AsyncGenerator<string> {
  let first = true;
  return textInBatches(pages, (item) => {
    const json = toJson(item);
    if (first) {
      first = false;
      return json;
    }
    return `,${json}`;
  });
}
