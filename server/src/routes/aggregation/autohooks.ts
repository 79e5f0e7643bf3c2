export { default } from '../require-sign-in.js';
