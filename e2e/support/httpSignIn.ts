/**
 * Signs in through the exchange over plain HTTP, as a browser would: follows the redirects by
 * hand with a cookie jar, picks or creates the account, and exchanges the code for a token.
 */
export async function signInOverHttp(
  baseUrl: string,
  choice: { account: string } | { name: string },
): Promise<{ token: string; userId: string }> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (pair && index > 0) cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
  };
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    remember(response);
    return response;
  };
  const redirectUri = `${baseUrl}/`;
  const page = (await (await fetch(`${baseUrl}/api/authorPage?redirectUri=${encodeURIComponent(redirectUri)}`)).json()) as {
    data: string;
  };
  // A location is relative to the address that answered it: the exchange may be another server.
  const next = (response: Response, from: string) => new URL(response.headers.get('location') as string, from).href;
  let response = await go(page.data);
  const signInUrl = next(response, page.data);
  await go(signInUrl);
  response = await go(signInUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(choice).toString(),
  });
  let location = next(response, signInUrl);
  const arrived = (url: string) => url.startsWith(redirectUri) && new URL(url).searchParams.has('code');
  for (let hop = 0; hop < 5 && !arrived(location); hop++) {
    response = await go(location);
    location = next(response, location);
  }
  const back = new URL(location);
  const login = (await (
    await fetch(`${baseUrl}/api/login?code=${back.searchParams.get('code')}&state=${back.searchParams.get('state')}`)
  ).json()) as { code: number; data: { token: string; userId: string } };
  if (login.code !== 0) throw new Error(`login refused: ${JSON.stringify(login)}`);
  return login.data;
}
