// better-sqlite3 ships no types and the service reaches it only through TypeORM; the SQLite copy
// benchmark opens the file directly, untyped.
declare module 'better-sqlite3';
