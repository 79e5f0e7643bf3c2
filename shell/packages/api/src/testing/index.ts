// Test-only helpers for every app's component tests: a fetch stand-in at the network's edge and a page renderer
// with the product's real store. Never imported by production code.
export * from './mock-api';
export { renderPage } from './render-page';
export { stubMatchMedia } from './match-media';
export * from './fixtures';
export { usePageTestEnvironment, type PageTestOptions } from './page-tests';
export { recordRenders } from './renders';
