/**
 * The product's defaults and limits, once. The schemas publish them in the OpenAPI document (`default` of
 * User.budgetHours and Category.color, `maxLength` of a title), and `npm run api:types` derives the client's
 * constants from that document, so client and server cannot disagree.
 */
export const DEFAULT_BUDGET_HOURS = 15;
export const DEFAULT_CATEGORY_COLOR = '#2D967C';
export const TITLE_MAX_LENGTH = 200;
