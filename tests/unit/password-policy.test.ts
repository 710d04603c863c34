import { describe, expect, it } from 'vitest';
import {
  checkConfirmPassword,
  checkNewPassword,
  checkOldPassword,
  checkPasswordChange,
  isStrongPassword,
  MOBILE_PHONE,
} from '../../src/shared/password/policy';
import { t } from '../../src/shared/i18n/messages';

describe('password rules of spec 5', () => {
  it.each([
    ['Abcdefg1', true], // upper, lower, digit
    ['abcdef1!', true], // lower, digit, special
    ['ABCDEF1!', true],
    ['abcdefgh', false], // one class
    ['abcdefg1', false], // two classes
    ['Abc1!', false], // too short
    ['Abcdefgh1!abcdef', false], // 16: too long
    ['Abcdefgh1!abcde', true], // 15
    ['Abc defg1', false], // whitespace
  ])('%s strong: %s', (value, strong) => {
    expect(isStrongPassword(value)).toBe(strong);
  });

  it('gives each field its own message, in the dialog order', () => {
    expect(t(checkOldPassword('')!)).toBe('请输入原密码');
    expect(t(checkOldPassword('x'.repeat(20))!)).toBe('输入长度需小于20');
    expect(checkOldPassword('x'.repeat(19))).toBeUndefined();
    expect(t(checkNewPassword(undefined)!)).toBe('请输入密码');
    expect(t(checkNewPassword('weak')!)).toBe('密码是数字、大小写字母、特殊字符三种及以上组合,且长度8-15位');
    expect(t(checkConfirmPassword('Abcdefg1', '')!)).toBe('请再次输入密码');
    expect(t(checkConfirmPassword('Abcdefg1', 'Abcdefg2')!)).toBe('两次输入密码不一致!');
    expect(
      checkPasswordChange({ password: 'Old@2026x', newPassword: 'Abcdefg1', confirmPassword: 'Abcdefg1' }),
    ).toBeUndefined();
    expect(checkPasswordChange({ password: 'Abcdefg1', newPassword: 'Abcdefg1', confirmPassword: 'Abcdefg1' })).toBe(
      'password.new.sameAsOld',
    );
  });

  it('has English for every message', () => {
    expect(t('password.confirm.mismatch', 'en-US')).toBe('The two passwords do not match!');
  });

  it('recognises mobile phone numbers: 11 digits, 1 then 3-9', () => {
    expect(MOBILE_PHONE.test('13812345678')).toBe(true);
    expect(MOBILE_PHONE.test('12812345678')).toBe(false);
    expect(MOBILE_PHONE.test('1381234567')).toBe(false);
  });
});
