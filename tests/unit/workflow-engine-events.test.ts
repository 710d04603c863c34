import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conditionProblem, timerProblem } from '../../src/server/workflow/engine/eventRules';
import { dialectNotes, standardPeople } from '../../src/server/workflow/engine/dialects';
import { firstDue, nextDue } from '../../src/server/workflow/engine/startEvents';
import { modelProblems, readModel, type ModdleElement } from '../../src/server/workflow/engine/validate';
import { hasLayout, withLayout } from '../../src/web/workflow/designer/foreign';
import { ACTIVITI_FIXTURES } from '../support/fixtures';
import { createRequire } from 'node:module';

// The designer hands its diagram's moddle; bpmn-moddle is the same package bpmn-js uses.
const BpmnModdle = createRequire(import.meta.url)('bpmn-moddle') as new () => Parameters<typeof withLayout>[1];

/** The deploy rules of issue 22 one by one: timers, conditions, other dialects, layouts for foreign files. */
const timer = (kind: string, text: string) => ({ $type: 'bpmn:TimerEventDefinition', [kind]: { body: text } });

describe('timer texts', () => {
  it('takes ISO 8601 durations, dates, cycles and expressions', () => {
    expect(timerProblem(timer('timeDuration', 'PT2H'))).toBeUndefined();
    expect(timerProblem(timer('timeDuration', 'P1DT30M'))).toBeUndefined();
    expect(timerProblem(timer('timeDate', '2026-12-01T08:00:00Z'))).toBeUndefined();
    expect(timerProblem(timer('timeCycle', 'R3/PT1H'))).toBeUndefined();
    expect(timerProblem(timer('timeDuration', '${reviewWithin}'))).toBeUndefined();
  });

  it('names what is wrong with the rest', () => {
    expect(timerProblem(timer('timeDuration', '2 hours'))).toBe(
      'timeDuration "2 hours" is not an ISO 8601 duration (PT2H)',
    );
    expect(timerProblem(timer('timeDate', 'tomorrow'))).toBe('timeDate "tomorrow" is not an ISO 8601 date');
    expect(timerProblem(timer('timeCycle', 'every hour'))).toBe(
      'timeCycle "every hour" is not an ISO 8601 cycle (R3/PT1H)',
    );
    expect(timerProblem(timer('timeDuration', '${a >}'))).toMatch(/^timeDuration "\$\{a >\}": cannot parse/);
    expect(timerProblem({ $type: 'bpmn:TimerEventDefinition' })).toBe(
      'a timer needs exactly one of timeDuration, timeDate or timeCycle',
    );
  });

  it('says it in Chinese, and refuses an expression on a start event, which fires before any variable exists', () => {
    expect(timerProblem(timer('timeDuration', '2 hours'), 'zh-CN')).toBe(
      'timeDuration “2 hours”不是 ISO 8601 时长（如 PT2H）',
    );
    expect(timerProblem(timer('timeDuration', '${a >}'), 'zh-CN')).toMatch(/^timeDuration “\$\{a >\}”：无法解析：/);
    expect(timerProblem(timer('timeCycle', '${every}'), 'en-US', true)).toBe(
      'a timer start event cannot take its time from an expression (${every}): before it fires there is no instance, so no variables',
    );
    expect(timerProblem(timer('timeCycle', 'R/PT1H'), 'en-US', true)).toBeUndefined();
  });
});

describe('start event timers', () => {
  it('fire once for a date or duration, R3 three times, R for ever, one period apart', () => {
    const armed = new Date('2026-01-01T00:00:00Z');
    const first = firstDue('timeCycle', 'R3/PT1H', armed);
    expect(first.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(nextDue('timeCycle', 'R3/PT1H', first, 1, first)?.toISOString()).toBe('2026-01-01T02:00:00.000Z');
    expect(nextDue('timeCycle', 'R3/PT1H', first, 3, first)).toBeNull();
    expect(nextDue('timeCycle', 'R/PT1H', first, 500, first)?.toISOString()).toBe('2026-01-01T02:00:00.000Z');
    expect(nextDue('timeDuration', 'PT1H', first, 1, first)).toBeNull();
    expect(nextDue('timeDate', '2026-01-01T01:00:00Z', first, 1, first)).toBeNull();
  });

  it('skip the times missed while no server ran: the next is the first after now', () => {
    const due = new Date('2026-01-01T01:00:00Z');
    const now = new Date('2026-01-01T05:30:00Z');
    expect(nextDue('timeCycle', 'R/PT1H', due, 1, now)?.toISOString()).toBe('2026-01-01T06:00:00.000Z');
  });
});

describe('conditions', () => {
  const flow = (body: string, language?: string) =>
    ({ $type: 'bpmn:SequenceFlow', conditionExpression: { body, language } }) as unknown as ModdleElement;

  it('accepts ${...} in JUEL or no language', () => {
    expect(conditionProblem(flow('${input == 1}'), 'f')).toBeUndefined();
    expect(conditionProblem(flow('${input == 1}', 'juel'), 'f')).toBeUndefined();
  });

  it('refuses a script language and plain text', () => {
    expect(conditionProblem(flow('input == 1', 'groovy'), 'f')).toContain('f: the condition is written in "groovy"');
    expect(conditionProblem(flow('${input == 1}', 'javascript'), 'f')).toContain('"javascript"');
    expect(conditionProblem(flow('input == 1'), 'f')).toContain('is not a ${...} expression');
  });
});

describe('other dialects', () => {
  const xml = (task: string) => `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="x">
  <process id="p" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>${task}
  <sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/></process></definitions>`;
  const taskOf = async (task: string) => {
    const defs = await readModel(xml(task));
    return { defs, task: defs.rootElements![0]!.flowElements!.find((e) => e.id === 't')! };
  };

  it('reads potentialOwner as candidates (a bare name a group) and humanPerformer as the assignee', async () => {
    const { task } = await taskOf(`<userTask id="t">
      <humanPerformer><resourceAssignmentExpression><formalExpression>kermit</formalExpression></resourceAssignmentExpression></humanPerformer>
      <potentialOwner><resourceAssignmentExpression><formalExpression>user(fozzie), group(management), accountancy</formalExpression></resourceAssignmentExpression></potentialOwner>
    </userTask>`);
    expect(standardPeople(task)).toEqual({
      assignee: 'kermit',
      candidateUsers: ['fozzie'],
      candidateGroups: ['management', 'accountancy'],
    });
  });

  it('notes the Flowable attributes read and those left out', async () => {
    const { defs } = await taskOf(
      `<userTask id="t" flowable:candidateGroups="histology" flowable:formKey="12" flowable:dueDate="P1D"/>`,
    );
    expect(dialectNotes(defs, 'p')).toEqual([
      "t: flowable:candidateGroups, flowable:formKey read as Activiti's",
      't: flowable:dueDate not run by this engine, left out',
    ]);
    expect(await modelProblems(defs, 'p')).toEqual([]);
  });

  it('notes listeners, which the engine does not run', async () => {
    const { defs } = await taskOf(
      `<userTask id="t"><extensionElements><flowable:taskListener event="create" class="org.Foo"/></extensionElements></userTask>`,
    );
    expect(dialectNotes(defs, 'p')).toEqual(['t: flowable:taskListener not run by this engine']);
    expect(dialectNotes(defs, 'p', 'zh-CN')).toEqual(['t: flowable:taskListener 本引擎不运行']);
  });
});

describe('layouts for files from elsewhere', () => {
  it('generates a diagram for a file without one, keeping its elements and attributes', async () => {
    const xml = readFileSync(path.join(ACTIVITI_FIXTURES, 'TaskServiceTest.testFormKeyExpression.bpmn20.xml'), 'utf8');
    expect(hasLayout(xml)).toBe(false);
    const { xml: laid, laidOut } = await withLayout(xml, new BpmnModdle());
    expect(laidOut).toBe(true);
    expect(hasLayout(laid)).toBe(true);
    expect(laid).toContain('activiti:formKey="form-${var}.json"');
    // Laid out left to right along the flows: each next element further right.
    const x = (id: string) => Number(new RegExp(`bpmnElement="${id}">\\s*<dc:Bounds x="(\\d+)"`).exec(laid)?.[1]);
    expect(x('theStart')).toBeLessThan(x('theTask1'));
    expect(x('theTask1')).toBeLessThan(x('theTask2'));
    expect(x('theTask2')).toBeLessThan(x('theEnd'));
    // A file with a layout is left as it is.
    expect(await withLayout(laid)).toEqual({ xml: laid, laidOut: false });
  });
});
