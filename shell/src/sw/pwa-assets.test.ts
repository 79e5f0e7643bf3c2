import fs from 'node:fs';
import path from 'node:path';
import { TOKEN_KEY } from '@time-wallet/api';
import { WARM_MESSAGE_TYPE, WARM_URL_LIMIT } from './routes';

// The build-time half is CommonJS for webpack.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withConstants } = require('./pwa-assets.cjs') as {
  withConstants: (script: string, read?: (file: string) => string) => string;
};

const REGISTRATION = path.join(__dirname, '../../public/register-service-worker.js');

describe("the registration script's constants", () => {
  it('are those the TypeScript defines: the session token key, the warm message and its bound', () => {
    const script = withConstants(fs.readFileSync(REGISTRATION, 'utf8'));
    expect(script).not.toMatch(/'__\w+__'/);
    expect(script).toContain(`var TOKEN_KEY = '${TOKEN_KEY}';`);
    expect(script).toContain(`var MESSAGE = '${WARM_MESSAGE_TYPE}';`);
    expect(script).toContain(`var LIMIT = Number('${WARM_URL_LIMIT}');`);
  });

  it('fail the build when a constant is no longer written where it is read from', () => {
    const script = fs.readFileSync(REGISTRATION, 'utf8');
    expect(() => withConstants(script, () => 'export const TOKEN_KEY = tokenKey();')).toThrow(/TOKEN_KEY/);
    expect(() => withConstants('no placeholders')).toThrow(/__TOKEN_KEY__/);
  });
});
