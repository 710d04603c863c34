import type { MessageKey } from '../i18n/messages.js';

/**
 * The change-password rules of spec 5, shared by the dialog (checked on blur) and the server (checked
 * again, since a browser is never trusted). Each check answers the message key of the first broken
 * rule, or undefined.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 15;
export const OLD_PASSWORD_LIMIT = 20;

const CLASSES = [/\d/, /[A-Z]/, /[a-z]/, /[^A-Za-z0-9]/];

/** 8-15 characters combining at least three of digits, upper case, lower case and special characters. */
export function isStrongPassword(value: string): boolean {
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX || /\s/.test(value)) return false;
  return CLASSES.filter((re) => re.test(value)).length >= 3;
}

export function checkOldPassword(value: string | undefined): MessageKey | undefined {
  if (!value) return 'password.old.required';
  if (value.length >= OLD_PASSWORD_LIMIT) return 'password.old.tooLong';
  return undefined;
}

export function checkNewPassword(value: string | undefined): MessageKey | undefined {
  if (!value) return 'password.new.required';
  if (!isStrongPassword(value)) return 'password.new.weak';
  return undefined;
}

export function checkConfirmPassword(
  newPassword: string | undefined,
  confirm: string | undefined,
): MessageKey | undefined {
  if (!confirm) return 'password.confirm.required';
  if (confirm !== newPassword) return 'password.confirm.mismatch';
  return undefined;
}

export interface PasswordChange {
  password?: string;
  newPassword?: string;
  confirmPassword?: string;
}

/** The first broken rule of the whole form, in the order the dialog shows its fields. */
export function checkPasswordChange(form: PasswordChange): MessageKey | undefined {
  return (
    checkOldPassword(form.password) ??
    checkNewPassword(form.newPassword) ??
    checkConfirmPassword(form.newPassword, form.confirmPassword) ??
    (form.password === form.newPassword ? 'password.new.sameAsOld' : undefined)
  );
}

/** Spec 5: 11 digits, 1 then 3 to 9. */
export const MOBILE_PHONE = /^1[3-9]\d{9}$/;
