import { mapStacksOnFirstError } from './lazy-source-maps.js';

// The first import of every Lambda entry, so stacks thrown while the others load are mapped too.
mapStacksOnFirstError(import.meta.url);
