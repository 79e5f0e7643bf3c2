// jsdom lacks the WHATWG fetch family and TextEncoder that react-router 7 and RTK Query need; borrow Node's.
const { TestEnvironment } = require('jest-environment-jsdom');

const NODE_GLOBALS = [
  'fetch',
  'Headers',
  'Request',
  'Response',
  'FormData',
  'Blob',
  'File',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'TransformStream',
  'WritableStream',
  'structuredClone',
  'BroadcastChannel',
];

class BrowserLikeEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    for (const name of NODE_GLOBALS) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
    const window = this.global;
    const NodeRequest = globalThis.Request;
    // Relative URLs resolve against the page, as they do in a browser.
    this.global.Request = class extends NodeRequest {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, window.location.href).href : input, init);
      }
    };
  }
}

module.exports = BrowserLikeEnvironment;
