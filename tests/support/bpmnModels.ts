import { expect } from 'vitest';
import { api, tokenFor } from './client';
import { DEMO_PASSWORD, type TestServer } from './server';

/** A process file written inline for a test: the definitions wrap the given process body and root elements. */
export function processXml(key: string, body: string, roots = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:activiti="http://activiti.org/bpmn" targetNamespace="http://lims.test/events">
  ${roots}
  <process id="${key}" name="${key}" isExecutable="true">
${body}
  </process>
</definitions>`;
}

export interface Task {
  id: string;
  name: string;
  elementId: string;
  kind?: string;
  assignee: string | null;
  owner?: string | null;
  instanceId: string;
  candidateGroups: string[];
  candidateUsers: string[];
}

/** The admin's client and the model calls a test needs: save and deploy, start, tasks, instance detail. */
export function workflowClient(server: () => TestServer) {
  let token: string | undefined;
  const admin = async () => {
    token ??= await tokenFor(server().url, 'admin', DEMO_PASSWORD);
    return api(server().url, token, 'en-US');
  };
  /** Saves XML to a new model and deploys it; answers the deploy response (a refusal too). */
  const tryDeploy = async (xml: string) => {
    const key = /<process id="([^"]+)"/.exec(xml)![1]!;
    const caller = await admin();
    const created = await caller.post<{ id: string }>('/api/workflow/model/insert', { key, name: key });
    expect(created.body.resultCode, created.body.resultMessage).toBe(200);
    const id = created.body.resultObject.id;
    const saved = await fetch(`${server().url}/api/workflow/model/${id}/xml/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bpmn_xml: xml, svg_xml: '' }),
    });
    expect(saved.status).toBe(200);
    return caller.get(`/api/workflow/model/deploy?modelId=${id}`);
  };
  const deploy = async (xml: string) => {
    const res = await tryDeploy(xml);
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  };
  const start = async (modelKey: string, variables: Record<string, unknown> = {}, businessKey?: string) => {
    const res = await (
      await admin()
    ).post<{ processInstanceId: string }>('/api/workflow/process/start', { modelKey, variables, businessKey });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    return res.body.resultObject.processInstanceId;
  };
  const instance = async (id: string) =>
    (
      await (
        await admin()
      ).get<{
        status: string;
        tasks: Task[];
        catches: { elementId: string; kind: string; name: string | null; dueAt: string | null }[];
      }>(`/api/workflow/process/${id}`)
    ).body.resultObject;
  /** Names of the instance's open tasks, sorted. */
  const open = async (id: string) => (await instance(id)).tasks.map((t) => t.name).sort();
  const complete = async (task: Task, body: object = {}) =>
    (await admin()).post(`/api/workflow/task/${task.id}/complete`, body);
  const history = async (id: string) =>
    (
      await (
        await admin()
      ).get<{ history: { elementId: string; event: string }[]; active: string[] }>(`/api/workflow/process/${id}/trace`)
    ).body.resultObject;
  return { admin, tryDeploy, deploy, start, instance, open, complete, history, reset: () => (token = undefined) };
}
