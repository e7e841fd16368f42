/** The spec's response envelope: `{success, data}` or `{success: false, message}`. */
export const ok = <T>(data: T) => ({ success: true as const, data });
export const fail = (message: string) => ({ success: false as const, message });

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
