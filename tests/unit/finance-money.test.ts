import { describe, expect, it } from 'vitest';
import { cents, discounted, rateTenths, yuanText } from '../../src/server/finance/money';

describe('money in integer cents', () => {
  it('reads yuan as typed without floating-point drift', () => {
    expect(cents(0.1 + 0.2)).toBe(30);
    expect(cents(19.99)).toBe(1999);
    expect(cents('32.50')).toBe(3250);
    expect(cents('1.005')).toBeUndefined();
    expect(cents('abc')).toBeUndefined();
  });

  it('shows cents as yuan with two decimals, negatives included', () => {
    expect([yuanText(21000), yuanText(5), yuanText(-305), yuanText(0)]).toEqual(['210.00', '0.05', '-3.05', '0.00']);
  });

  it('rounds a discounted price half up to the cent', () => {
    // 32.50 at 八七五折 = 28.4375 → 28.44; 0.07 at 九五折 = 0.0665 → 0.07; 0.05 at 九折 = 0.045 → 0.05.
    expect(discounted(3250, rateTenths(87.5))).toBe(2844);
    expect(discounted(7, rateTenths(95))).toBe(7);
    expect(discounted(5, rateTenths(90))).toBe(5);
    expect(discounted(4000, rateTenths(90))).toBe(3600);
    expect(discounted(1999, rateTenths(100))).toBe(1999);
  });
});
