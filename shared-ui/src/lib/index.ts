// The pure helpers every app may use; each module's exports are its public API.
export * from './time';
export * from './date-format';
export * from './clock-span';
export * from './wallet';
export * from './validation';
// The Repeat field's rules as the event and task forms use them; the field itself is a component of the package root.
export { describeRule, ruleForNewStart, ruleProblems } from './repeat';
