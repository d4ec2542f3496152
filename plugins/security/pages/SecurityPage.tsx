/** The account's security page: sessions, trusted browsers, history, "this wasn't me" (being built). */
export default function SecurityPage() {
  return null;
}
