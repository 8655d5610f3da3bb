// The name of the deployment a notebook runs on when it names none and its profile has no default
// deployment: the profile's Data API then answers for whichever deployment its URL or token
// belongs to. Found by matching the URL against the deployments' own Data API hosts, else by the
// deployment the token was minted for, else the only deployment there is; else the Data API's
// host is named (never a bare "default deployment").
import { dataApiUrlOfDeployment } from '../api/platform/deployments';
import type { Services } from '../services';

const trim = (u: string) => u.replace(/\/+$/, '');

/** A short, user-facing name of where a profile's Data API answers from. */
export async function defaultDeploymentName(services: Services, profile: string): Promise<string> {
  const data = await services.clients.data(undefined, profile);
  let host = data.baseUrl;
  try {
    host = new URL(data.baseUrl).host;
  } catch {
    // keep the text as it is
  }
  let deployments: { id: number; name: string; deploymentUrl?: string | null }[];
  try {
    const platform = await services.clients.platform(profile);
    deployments = (await platform.listDeployments({ first: 100 })).items;
  } catch {
    return `Data API at ${host}`;
  }
  const byUrl = deployments.find((d) => {
    const url = dataApiUrlOfDeployment(d);
    return url !== undefined && trim(url) === trim(data.baseUrl);
  });
  if (byUrl) return String(byUrl.name);
  const claims = await data.tokenClaims();
  const claimed = claims.deploymentId ?? claims.deployment_id;
  const byToken = deployments.find((d) => d.id === Number(claimed));
  if (byToken) return String(byToken.name);
  if (deployments.length === 1) return String(deployments[0]!.name);
  return `Data API at ${host}`;
}
