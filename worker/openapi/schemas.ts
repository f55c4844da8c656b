import { z } from 'zod'
import { authResponseSchema, publicUserSchema } from '../../contract/auth'
import { auditEntrySchema } from '../../contract/audit'
import { approverSchema, beneficiarySchema } from '../../contract/circle'
import { apiErrorSchema } from '../../contract/errors'
import { identityDocumentSchema } from '../../contract/identity'
import { policySchema } from '../../contract/policies'
import { releaseSummarySchema, triggerSchema } from '../../contract/triggers'
import { uploadSessionSchema, vaultItemSchema } from '../../contract/vault-items'
import { securityKeySchema } from '../../contract/webauthn'

// zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), with one set of options for the
// whole document. Requests are described as the client sends them (`io: 'input'`: before
// defaults and transforms), answers as the server sends them. What JSON Schema cannot say
// (a refinement, a transform's code) is left out rather than refused: the validator still
// enforces it, and the document says no more than the shape.

export type JsonSchema = Record<string, unknown>

/** Contract schemas the document names once (components/schemas) and refers to wherever they appear. */
const NAMED: Record<string, z.ZodType> = {
  Error: apiErrorSchema,
  PublicUser: publicUserSchema,
  AuthResponse: authResponseSchema,
  Beneficiary: beneficiarySchema,
  Approver: approverSchema,
  Policy: policySchema,
  Trigger: triggerSchema,
  ReleaseSummary: releaseSummarySchema,
  VaultItem: vaultItemSchema,
  UploadSession: uploadSessionSchema,
  AuditEntry: auditEntrySchema,
  SecurityKey: securityKeySchema,
  IdentityDocument: identityDocumentSchema,
}

const named = z.registry<{ id: string }>()
for (const [id, schema] of Object.entries(NAMED)) named.add(schema, { id })

const COMPONENT = '#/components/schemas/'

/** Where `$ref`s to the named schemas point, and their definitions as they were emitted. */
export class SchemaSet {
  readonly components: Record<string, JsonSchema> = {}

  /** A request part as the client sends it. Named schemas are not used for input: their output is what they name. */
  input(schema: z.ZodType): JsonSchema {
    return this.convert(schema, 'input', z.registry())
  }

  /** An answer as the server sends it; named contract schemas become references to components/schemas. */
  output(schema: z.ZodType): JsonSchema {
    return this.convert(schema, 'output', named)
  }

  /** The reference to a named schema (declared in NAMED). */
  ref(id: keyof typeof NAMED & string): JsonSchema {
    const schema = NAMED[id]
    if (!schema) throw new Error(`no named schema ${id}`)
    if (!(id in this.components)) this.output(schema)
    return { $ref: COMPONENT + id }
  }

  private convert(schema: z.ZodType, io: 'input' | 'output', metadata: z.core.$ZodRegistry<{ id: string }>): JsonSchema {
    const { $schema: _dialect, $defs, ...json } = z.toJSONSchema(schema, {
      io,
      metadata,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      reused: 'inline',
      cycles: 'throw',
      override: ({ zodSchema, jsonSchema }) => {
        // zod says `additionalProperties: false` of an object's output because parsing strips
        // unknown keys; the server's answers are not parsed, so the document promises no such thing.
        const def = zodSchema._zod.def
        if (io === 'output' && def.type === 'object' && !('catchall' in def && def.catchall) && jsonSchema.additionalProperties === false) {
          delete jsonSchema.additionalProperties
        }
        // An integer's safe range, which zod states of every .int(), says nothing worth reading.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
      },
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> }
    for (const [id, definition] of Object.entries($defs ?? {})) {
      if (!(id in NAMED)) throw new Error(`unnamed shared schema ${id}: name it in NAMED or inline it`)
      const existing = this.components[id]
      const local = pointAtComponents(definition) as JsonSchema
      if (existing && JSON.stringify(existing) !== JSON.stringify(local)) throw new Error(`schema ${id} emitted two ways`)
      this.components[id] = local
    }
    return pointAtComponents(json) as JsonSchema
  }
}

/** `#/$defs/X` (zod's local references) → `#/components/schemas/X` (the document's). */
function pointAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointAtComponents)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, key === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, COMPONENT) : pointAtComponents(v)]),
  )
}
