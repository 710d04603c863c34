import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { schemaErrors } from '../../shared/screens/schemaCheck';

/**
 * The validator @rjsf asks for, without ajv: ajv compiles each schema into a function with eval, which
 * the app's Content-Security-Policy refuses (no 'unsafe-eval', issue 20). Forms run with noValidate
 * (their messages come from validateRecord, the server's own check), so rjsf asks this only whether a
 * value fits a schema (choosing among anyOf branches); the shared schema walk answers that.
 */
export const formValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema: RJSFSchema, formData: unknown) => schemaErrors(schema, formData).length === 0,
  rawValidation: <Result>(schema: RJSFSchema, formData?: unknown) => ({
    errors: schemaErrors(schema, formData) as Result[],
  }),
};
