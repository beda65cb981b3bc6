// Maps the `@dam/<lib>` imports onto the compiled libraries. Must be the first import of an entry point.
import * as path from 'node:path';
import { register } from 'tsconfig-paths';

register({ baseUrl: path.resolve(__dirname, '../../..'), paths: { '@dam/*': ['libs/*/src'] } });
