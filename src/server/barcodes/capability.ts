import type { Capability } from '../kernel/capability.js';
import { barcodeRoutes } from './routes.js';
import { serialNumbers } from './serialNumbers.js';
import { specimenBarcodes } from './specimenRules.js';

/**
 * Custom barcode rules (spec 2.2 barcode management): numbers issued without gaps, and every specimen's
 * barcode one of them; the serial numbers of a group's run, from its serial number rule.
 */
export const barcodes: Capability = {
  name: 'barcodes',
  routes: barcodeRoutes,
  hooks: () => [specimenBarcodes, serialNumbers],
};
