// Names a profiled function by its original source, through the source maps of the builds a stack serves.
import fs from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { distDirsOf } from '../support/bytes.mjs';

/**
 * For a running stack: `mapOf` maps a profile's call frame (url, line, column) to "original-file:name", and `ownKeys`
 * holds the keys mapOf gave so far of functions from the project's own sources (mapped, and not from node_modules or
 * webpack's runtime).
 */
export function sourceMapper(stack) {
  const dirs = distDirsOf(stack);
  const ownKeys = new Set();
  const consumers = new Map();
  const consumerOf = (url) => {
    if (consumers.has(url)) return consumers.get(url);
    let consumer = null;
    try {
      const { origin, pathname } = new URL(url);
      const dir = dirs.get(origin);
      const mapFile = dir && path.join(dir, `${pathname}.map`);
      if (mapFile && fs.existsSync(mapFile))
        consumer = new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8')));
    } catch {
      consumer = null;
    }
    consumers.set(url, consumer);
    return consumer;
  };
  const mapOf = ({ url, functionName, lineNumber, columnNumber }) => {
    if (!url) return functionName ? `(${functionName})` : '(program)';
    const consumer = consumerOf(url);
    const short = url.replace(/^https?:\/\/[^/]+/, '');
    if (!consumer) return `${short}:${functionName || '(anonymous)'}`;
    const original = consumer.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
    if (!original.source) return `${short}:${functionName || '(anonymous)'}`;
    const inProject = original.source.replace(/^webpack:\/\/[^/]*\//, '');
    const source = inProject.replace(/^(\.\.\/)*node_modules\//, '');
    // An unnamed function is told apart by its line.
    const key = `${source}:${original.name ?? (functionName || `(anonymous, line ${original.line})`)}`;
    if (source === inProject && !/^webpack\//.test(source)) ownKeys.add(key);
    return key;
  };
  return { mapOf, ownKeys };
}
