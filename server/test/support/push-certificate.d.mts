export const PUSH_SERVICE_HOSTS: string[];
export function pushCertificateDir(): string;
export function ensurePushCertificate(): { ca: string; cert: string; key: string };
