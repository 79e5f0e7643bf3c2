// The pure helpers every app may use; each module's exports are its public API.
export * from './time';
export * from './wallet';
export * from './validation';
export * from './repeat';
