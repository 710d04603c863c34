import { AxiosError, AxiosHeaders } from 'axios';

/** A failed call as axios gives it, with the envelope the server answered (its message, its field errors). */
export function refusal(
  status: number,
  resultMessage: string,
  resultObject: unknown = null,
): AxiosError<{ resultCode: number; resultMessage: string; resultObject: unknown }> {
  const config = { headers: new AxiosHeaders() };
  const data = { resultCode: status, resultMessage, resultObject };
  const code = status < 500 ? AxiosError.ERR_BAD_REQUEST : AxiosError.ERR_BAD_RESPONSE;
  return new AxiosError(String(status), code, config, undefined, { status, statusText: '', headers: {}, config, data });
}
