import { Activity } from 'bpmn-elements';
import * as gateways from 'bpmn-elements/gateways';

// The package's types file serves every entry point and declares the behaviours under another module name.
const { InclusiveGatewayBehaviour } = gateways as unknown as { InclusiveGatewayBehaviour: unknown };

/**
 * An inclusive gateway that also joins. bpmn-elements runs an inclusive gateway once per arriving
 * token, so a join would start the next task once for every branch. Its own parallel join already
 * does what an inclusive join needs: it waits until each incoming flow has either been taken or
 * discarded (a branch the fork did not take is discarded all the way to the join), and goes on if any
 * was taken. The gateway keeps its inclusive behaviour and type; only the join flag is set, which the
 * engine reads for gateways with more than one incoming flow.
 */
export function InclusiveGateway(activityDef: object, context: unknown) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bpmn-elements types Activity's constructor loosely
  return new (Activity as any)(InclusiveGatewayBehaviour, { ...activityDef, isParallelGateway: true }, context);
}
