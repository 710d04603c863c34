import type { Period } from './period.js';

/** Clauses and parameters of a query, built together so that the numbering of $n stays right. */
export class Sql {
  readonly where: string[] = [];
  constructor(readonly values: unknown[] = []) {}
  /** Clauses of a part of the same statement (a subquery): their own conditions, the statement's $n. */
  clauses(): Sql {
    return new Sql(this.values);
  }
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** The column within the period (half-open), and present. */
  within(column: string, period: Period) {
    this.where.push(`${column} is not null`);
    if (period.from) this.where.push(`${column} >= ${this.param(period.from)}::timestamptz`);
    if (period.to) this.where.push(`${column} < ${this.param(period.to)}::timestamptz`);
  }
  clause(): string {
    return this.where.length > 0 ? `where ${this.where.join(' and ')}` : '';
  }
}
