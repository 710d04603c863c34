/** Local wall-clock time as the screens store datetimes ("YYYY-MM-DD HH:mm:ss"). */
export const localDateTime = (d: Date): string =>
  new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19).replace('T', ' ');
