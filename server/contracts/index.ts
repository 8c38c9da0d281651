export * from './errors';
export * from './permissions';
export * from './auth';
export * from './users';
export * from './groups';
export * from './builtin';
