export function freePort(): Promise<number>;
export function apiProcessEnv(port: number, env?: Record<string, string>): Record<string, string>;
