/**
 * News for one organisation's open browsers: not an alert (a topic, no title, never shown as such) but
 * a hint that something they show changed (the dashboard's counts). On PostgreSQL it travels by NOTIFY
 * like alerts, so a browser hears it whichever process holds its socket.
 */
export interface OrgNews {
  orgId: number;
  news: { topic: string } & Record<string, unknown>;
}

export const newsPayload = (news: OrgNews): string => JSON.stringify({ orgNews: news });

/** A notification carrying news; anything else, or malformed, is not news. */
export function readNews(payload: string): OrgNews | undefined {
  try {
    const { orgNews } = JSON.parse(payload) as { orgNews?: Partial<OrgNews> };
    if (!orgNews || !Number.isInteger(orgNews.orgId)) return undefined;
    const news = orgNews.news;
    if (!news || typeof news !== 'object' || typeof news.topic !== 'string') return undefined;
    return { orgId: orgNews.orgId!, news };
  } catch {
    return undefined;
  }
}
