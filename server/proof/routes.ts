import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATHS } from '../../contract/paths.ts';
import { InclusionProof, ProofMineQuery, ProofRootData, ProofRootQuery } from '../../contract/proof.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { answers, ok } from '../http/schemas.ts';
import { inclusionProof, publishedRoots } from './repository.ts';

const tags = ['proof'];

/** Proof of liabilities: the published roots (public) and a holder's own inclusion proof. */
export const proofRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.proofRoot,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Published roots and totals of the liabilities tree, for a day or the latest',
        querystring: ProofRootQuery,
        response: answers(ProofRootData),
      },
    },
    async (request) => ok(await publishedRoots(ctx.db, request.query.day)),
  );

  app.get(
    PATHS.proofMine,
    {
      schema: {
        tags,
        summary: 'The signed-in holder’s own inclusion proof (only their own)',
        security: [{ bearer: [] }],
        querystring: ProofMineQuery,
        response: answers(InclusionProof),
      },
    },
    async (request) => ok(await inclusionProof(ctx.db, userIdOf(request), request.query.asset ?? 'AIC', request.query.day)),
  );
};
