export type DeviceKind = 'phone' | 'computer';

export interface Device {
  /** A short human name, e.g. 'Chrome on Linux'. */
  name: string;
  kind: DeviceKind;
}

const RAW_NAME_MAX_LENGTH = 40;

// Order matters: Edge, Opera and Samsung Internet also say 'Chrome', and Chrome also says 'Safari'.
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

// iPhones say 'like Mac OS X', Android and ChromeOS also say 'Linux'.
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPad\b/, 'iPadOS'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const PHONE = /\bMobi|\biPhone\b|\biPod\b|\bAndroid\b/;

const firstMatch = (list: ReadonlyArray<readonly [RegExp, string]>, userAgent: string) =>
  list.find(([pattern]) => pattern.test(userAgent))?.[1];

/**
 * The device a session was signed in from, read from its user agent: 'Chrome on Linux', 'Safari on iOS'; a client
 * that is no known browser keeps its own words, cut short.
 */
export function deviceFrom(userAgent: string | null | undefined): Device {
  const text = (userAgent ?? '').trim();
  const kind: DeviceKind = PHONE.test(text) ? 'phone' : 'computer';
  if (!text) return { name: 'Unknown device', kind };
  const browser = firstMatch(BROWSERS, text);
  const system = firstMatch(SYSTEMS, text);
  if (browser && system) return { name: `${browser} on ${system}`, kind };
  if (browser) return { name: browser, kind };
  if (system) return { name: `A browser on ${system}`, kind };
  const name = text.length > RAW_NAME_MAX_LENGTH ? `${text.slice(0, RAW_NAME_MAX_LENGTH - 1)}…` : text;
  return { name, kind };
}
