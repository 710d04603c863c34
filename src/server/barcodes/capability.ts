import type { Capability } from '../kernel/capability.js';
import { barcodeRoutes } from './routes.js';

/** Custom barcode rules (spec 2.2 barcode management): numbers issued without gaps. */
export const barcodes: Capability = { name: 'barcodes', routes: barcodeRoutes };
