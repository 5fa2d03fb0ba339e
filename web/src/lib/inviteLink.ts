/**
 * The invitation link: the app's own address with the code in the query and the centre as the
 * route. Opening it keeps the code (first load, urlParams) through the exchange's sign-in, and
 * the bind step is prefilled with it.
 */
export function inviteLink(code: string, where: Pick<Location, 'origin' | 'pathname'> = location): string {
  return `${where.origin}${where.pathname}?inviteCode=${encodeURIComponent(code)}#/center`;
}
