import type { Capability } from '../kernel/capability.js';
import { dataInputRoutes } from './routes.js';

/** Imports of a hospital's codes into the import dictionary (spec 7.4 imporItem, upLoadItemExcel). */
export const dataInput: Capability = { name: 'dataInput', routes: dataInputRoutes };
