import { expect } from 'vitest';
import type { TestUser } from '../helpers/builders';
import type { ServiceClients } from '../helpers/client';

/** The documents of the two-hop fixture: Project Falcon's investigator is described only in holm.txt. */
export const LINKED_DOCS: Record<string, string> = {
  'falcon.txt': 'Project Falcon is a satellite imaging programme for coastal monitoring. The principal investigator of Project Falcon is Ingrid Holm.',
  'holm.txt': 'Ingrid Holm keeps her office in the Aurora Building in Tromsø. Before that, Ingrid Holm studied glaciology at a university in Bergen.',
  'heron.txt': 'Project Heron is a weather forecasting programme. The principal investigator of Project Heron is Tomas Berg.',
  'osprey.txt': 'Project Osprey is an ocean sensor programme. The principal investigator of Project Osprey is Lena Dahl.',
  'berg.txt': 'Tomas Berg works from the Polar Institute in Oslo and sails every summer.',
  // Twenty more programmes that match the question's words better than holm.txt does, so plain
  // search ranks holm.txt below the depth it reads candidates from.
  'catalogue.txt': Array.from(
    { length: 20 },
    (_, i) =>
      `Programme ${i + 1} of the catalogue is a research project on ${['tides', 'soil', 'wind', 'ice', 'kelp'][i % 5]} with its own principal investigator. ` +
      'The principal investigator of each project reports to the steering board twice a year, and every project publishes its data after one year. '.repeat(5),
  ).join('\n\n'),
};

const FIRST = ['Ingrid', 'Tomas', 'Lena', 'Nadia', 'Omar', 'Sofia', 'Pavel', 'Amara', 'Jonas', 'Keiko'];
const LAST = ['Holm', 'Berg', 'Dahl', 'Okafor', 'Haddad', 'Rossi', 'Novak', 'Mensah', 'Lindqvist', 'Tanaka'];
const PLACES = ['Bergen', 'Oslo', 'Tromsø', 'Lisbon', 'Nairobi', 'Kyoto', 'Prague', 'Accra', 'Montreal', 'Lima'];
const ORGS = ['Polar Institute', 'Nordic Space Agency', 'Acme Corporation', 'Blue Harbour Trust', 'Meridian Labs'];

/** A long report (≈ `paragraphs` × 450 characters) naming people, places and organisations. */
export function longReport(seed: number, paragraphs: number): string {
  const out: string[] = [];
  for (let i = 0; i < paragraphs; i += 1) {
    const n = seed * 31 + i * 7;
    const a = `${FIRST[n % 10]} ${LAST[(n * 3) % 10]}`;
    const b = `${FIRST[(n + 3) % 10]} ${LAST[(n * 7 + 1) % 10]}`;
    out.push(
      `In the spring survey, ${a} met ${b} in ${PLACES[n % 10]} to review the sensor data collected for the ${ORGS[n % 5]}. ` +
        `They compared the readings with earlier measurements from ${PLACES[(n + 4) % 10]} and wrote a short note about calibration drift, ` +
        `battery life in cold weather and the cost of replacing damaged housings. ${b} agreed to send the revised figures to the ${ORGS[(n + 2) % 5]} before the next meeting.`,
    );
  }
  return out.join('\n\n');
}

/** Polls the graph status until `done` says so. */
export async function waitForGraph(server: ServiceClients, user: TestUser, id: string, done: (s: { status: string; progress: number }) => boolean = (s) => s.status !== 'building', timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.as(user.token).get(`/api/v1/knowledge/${id}/graph/status`);
    expect(res.status, res.text).toBe(200);
    if (done(res.body)) return res.body as { status: string; progress: number; entities: number; relations: number; error?: string };
    if (Date.now() > deadline) throw new Error(`graph still not there: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Reads an SSE response to its end; returns the parsed `data:` payloads. */
export async function readEvents(res: Response): Promise<Array<Record<string, any>>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as Record<string, any>);
}

/** The data embedded in the graph page. */
export function pageData(html: string): { nodes: Array<{ id: number; name: string; type: string; mentions: number; chunks: number[] }>; links: Array<{ source: number; target: number; type: string; weight: number }>; chunks: Record<string, { file_id: string; text: string }> } {
  const match = /<script type="application\/json" id="graph-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no graph data in the page');
  return JSON.parse(match[1]!);
}
