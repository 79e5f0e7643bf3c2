import fs from 'node:fs';

/**
 * The runtime config file as it is now, read and parsed again only when its size or modification time changes (a
 * static server asks on every page it sends): `{ version, config }`, or `{ version, error }` when the file cannot be
 * read or is not JSON. What the config must hold is its reader's business (headersForRuntimeConfig, first frames).
 */
export function runtimeConfigReader(configFile) {
  let current = null;
  return () => {
    let version;
    try {
      const { mtimeMs, size } = fs.statSync(configFile);
      version = `${mtimeMs}:${size}`;
    } catch (error) {
      version = `unreadable:${error.code}`;
    }
    if (current?.version === version) return current;
    try {
      current = { version, config: JSON.parse(fs.readFileSync(configFile, 'utf8')) };
    } catch (error) {
      current = { version, error };
    }
    return current;
  };
}
