import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { createBase, uploadFile, waitForFiles } from './knowledge-helpers';

/** Per language: documents (the first is the one to find) and a query naming its topic in another inflected form. */
const CASES = {
  german: {
    docs: [
      'Die alten Häuser am Fluss werden im Frühling frisch gestrichen. Die Nachbarn helfen einander dabei jedes Jahr.',
      'Der Zug nach München fährt heute später ab, weil ein Signal gestört ist. Reisende sollen auf Ansagen achten.',
      'Im Garten wachsen Tomaten, Gurken und viele Kräuter. Sie brauchen im Sommer jeden Abend Wasser.',
    ],
    query: 'Haus',
  },
  french: {
    docs: [
      'Les chevaux galopaient dans les prairies verdoyantes du village. Les enfants les regardaient depuis la colline.',
      'La boulangerie du quartier ouvre très tôt le matin et vend du pain chaud. Les clients font souvent la queue.',
      'Le musée présente une nouvelle exposition sur la peinture moderne. Elle restera ouverte tout l’hiver.',
    ],
    query: 'cheval',
  },
  spanish: {
    docs: [
      'Los niños jugaban en los parques de la ciudad durante toda la tarde. Sus padres descansaban a la sombra.',
      'El mercado central vende frutas frescas y pescado cada mañana. Los precios cambian según la temporada.',
      'La biblioteca municipal abrirá una sala nueva dedicada a la historia local. Habrá visitas guiadas.',
    ],
    query: 'niño parque',
  },
  russian: {
    docs: [
      'Кошки спали на тёплых подоконниках всё утро. Хозяйка не решалась их будить до обеда.',
      'Поезд до Москвы отправляется с третьего пути через десять минут. Пассажиров просят занять места.',
      'В библиотеке открылся новый зал для чтения старинных книг. Вход для всех бесплатный.',
    ],
    query: 'кошка',
  },
  // Written without spaces: words are found by segmentation, so a query phrased differently
  // ("the library's reading room") meets the document's words (English analysis would see each
  // sentence as one long word).
  chinese: {
    docs: [
      '北京的图书馆今天开放了一个新的阅览室，市民可以免费借阅古籍。每天都有很多学生来这里学习。',
      '火车将在十分钟后从第三站台出发，请乘客尽快上车。车站里的广播一直在提醒大家。',
      '花园里种满了西红柿和黄瓜，夏天每天晚上都要浇水。邻居们经常来帮忙。',
    ],
    query: '图书馆的阅览室',
  },
} as const;

describe('language-aware analysis', () => {
  let server: TestServer;
  let admin: TestUser;
  const bases = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    for (const [language, { docs }] of Object.entries(CASES)) {
      const base = await createBase(server, admin, `Base ${language}`);
      for (const [i, text] of docs.entries()) {
        const fileId = await uploadFile(server, admin, `${language}-${i}.txt`, text);
        const res = await server.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: fileId });
        expect(res.status, res.text).toBe(200);
      }
      bases.set(language, base);
    }
    for (const base of bases.values()) await waitForFiles(server, admin, base, 60_000);
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  /** Ranks by words only (weight 1), so only the analysis can make the inflected form meet the document. */
  const byWords = (base: string, query: string) => server.services.retrieval.service.search([base], query, { weight: 1, threshold: 0.01, k: 3 });

  it('detects each base’s language from its documents and finds a document by an inflected form of its words', async () => {
    for (const [language, { docs, query }] of Object.entries(CASES)) {
      const base = bases.get(language)!;
      const detail = await server.as(admin.token).get(`/api/v1/knowledge/${base}`);
      expect(detail.status, detail.text).toBe(200);
      expect(detail.body.language, language).toBe(language);
      const hits = await byWords(base, query);
      expect(hits[0]?.text, `${language}: ${query}`).toBe(docs[0]);
      expect(hits[0]!.lexical).toBeGreaterThan(0);
    }
  });

  it('re-indexes a base in the background when its owner changes the language', async () => {
    const base = bases.get('german')!;
    const changed = await server.as(admin.token).post(`/api/knowledge/${base}/update`, { name: 'Base german', language: 'english' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.language).toBe('english');
    // English analysis does not know that "Häuser" is a form of "Haus".
    expect(await byWords(base, 'Haus')).toEqual([]);
    const back = await server.as(admin.token).post(`/api/knowledge/${base}/update`, { name: 'Base german', language: 'german' });
    expect(back.body.language).toBe('german');
    const deadline = Date.now() + 20_000;
    while ((await server.as(admin.token).get(`/api/v1/knowledge/${base}`)).body.reindexing !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await byWords(base, 'Haus'))[0]?.text).toBe(CASES.german.docs[0]);

    const bad = await server.as(admin.token).post(`/api/knowledge/${base}/update`, { name: 'Base german', language: 'klingon' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('language');
  });
});
