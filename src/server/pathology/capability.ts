import type { Capability } from '../kernel/capability.js';
import { blocksAndSlides } from './blocks.js';
import { pathologyCases } from './cases.js';
import { pathologyDiagnosis } from './diagnosis.js';

/**
 * Pathology (domain: "Pathology"): a case grossed from a received specimen, its blocks and slides each
 * labelled and each step done by the signed-in technician, and its diagnosis signed by one pathologist
 * and reviewed by another, which signs the case out (its report issued by the reports capability).
 */
export const pathology: Capability = {
  name: 'pathology',
  hooks: () => [pathologyCases, blocksAndSlides, pathologyDiagnosis],
};
