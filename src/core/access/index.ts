export * from './access';
export * from './Authorized';
