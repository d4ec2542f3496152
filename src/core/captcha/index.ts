export * from './crypto';
export * from './fingerprint';
