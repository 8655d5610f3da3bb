// The dimensions a notification can filter on: the deployment's /v1/meta (the same member index
// the notebook completes from), cached by the data client per deployment.
import { MemberIndex } from '../notebook/memberIndex';
import type { Services } from '../services';
import type { MemberChoice } from './createNotificationFlow';

export async function memberChoices(services: Services, deploymentId: number): Promise<MemberChoice[]> {
  const data = await services.clients.data(deploymentId);
  const index = new MemberIndex(await data.meta());
  return [...index.members.values()]
    .filter((m) => m.kind === 'dimension')
    .map((m) => ({
      name: m.name,
      ...(m.title !== undefined ? { title: m.title } : {}),
      ...(m.type !== undefined ? { type: m.type } : {}),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
