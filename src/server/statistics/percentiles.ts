/**
 * Percentiles of turnaround minutes without sorting the tests: from a histogram (tests per key and
 * minute) or from a kept sorted histogram (migration 22: the distinct minutes in order and how many
 * tests took that long or less). Both give, per key, the 0-based ranks floor and ceil of p × (n − 1)
 * interpolated: the values percentile_cont gives.
 */

/** The figures of a relation `ranks` (key, total, m50lo/hi, m90lo/hi, longest, within, low, high). */
const FIGURES = (() => {
  const interpolated = (p: number, name: string) =>
    `(${name}lo + (${p} * (total - 1) - floor(${p} * (total - 1))) * (${name}hi - ${name}lo))::float8`;
  return `key, total::int as count, ${interpolated(0.5, 'm50')} as "medianMinutes",
          ${interpolated(0.9, 'm90')} as "p90Minutes", longest::float8 as "maxMinutes", within as "withinTarget",
          case when low = high then low::float8 end as "targetMinutes"`;
})();

/**
 * CTEs `histogram`, `running` and `hranks` over `tests` (a CTE of key, minutes, n, and target when
 * `targets`): per key the total, the minutes at the ranks around the median and the 90th percentile,
 * the longest and, with targets, how many within and the lowest and highest target.
 */
export function histogramRanks(tests: string, targets: boolean): string {
  const at = (p: number, bound: 'floor' | 'ceil') => `min(minutes) filter (where upto > ${bound}(${p} * (total - 1)))`;
  return `histogram as (
       select key, minutes, sum(n) as n${
         targets
           ? `, coalesce(sum(n) filter (where minutes <= target), 0) as within,
              min(target) as low, max(target) as high`
           : ''
       }
         from ${tests} group by key, minutes),
     running as (
       select *, sum(n) over (partition by key order by minutes) as upto, sum(n) over (partition by key) as total
         from histogram),
     hranks as (
       select key, total, ${at(0.5, 'floor')} as m50lo, ${at(0.5, 'ceil')} as m50hi,
              ${at(0.9, 'floor')} as m90lo, ${at(0.9, 'ceil')} as m90hi, max(minutes) as longest${
                targets
                  ? `,
              sum(within)::int as within, min(low) as low, max(high) as high`
                  : ''
              }
         from running group by key, total)`;
}

/**
 * The same ranks read off kept sorted histograms (`sorted`: key, minutes[], upto[], one row per key): a
 * binary search per rank (width_bucket counts the running totals at or below it).
 */
export function sortedRanks(sorted: string): string {
  const at = (p: number, bound: 'floor' | 'ceil') =>
    `minutes[width_bucket(${bound}(${p} * (total - 1))::int, upto) + 1]`;
  return `sranks as (
       select key, total, ${at(0.5, 'floor')} as m50lo, ${at(0.5, 'ceil')} as m50hi,
              ${at(0.9, 'floor')} as m90lo, ${at(0.9, 'ceil')} as m90hi, minutes[cardinality(minutes)] as longest
         from (select key, minutes, upto, upto[cardinality(upto)]::numeric as total from ${sorted} k) s)`;
}

/** The figures of ranks (CTE `ranks`) and of the tests within their targets. */
export const figuresOf = (ranks: string) => `select ${FIGURES} from ${ranks}`;

/**
 * The figures of a turnaround from the tests it counts (a select of key, minutes, target and n, the
 * number of tests of that minute): per key the count, median and 90th percentile, longest and how many
 * within target.
 */
export function percentilesOf(tests: string): string {
  return `with tests as (${tests}),
     ${histogramRanks('tests', true)}
     ${figuresOf('hranks')}`;
}
