/** A model entry as the mock gateway stores it (`db_model`: added through the API, not from the config). */
export interface StoredGatewayModel {
  id: string;
  model_name: string;
  gateway_params: { model: string; api_base: string; api_key: string };
  db_model: boolean;
  /** What `/model/info` shows under `model_info` besides `id` and `db_model` (set by an update). */
  model_info?: Record<string, unknown>;
}

/** A spend-log row as the mock gateway records it (the gateway's spend-table columns). */
export type StoredSpendRow = Record<string, unknown> & {
  request_id: string;
  startTime: string;
  spend: number;
};

export interface GatewayStoreInit {
  /** Entries of `proxy_config.model_list` (kept across "restarts", unlike API-added models). */
  config?: { model_list?: ConfigEntry[]; general_settings?: { forward_client_headers_to_llm_api?: boolean } };
  /** Environment of the gateway pod, for `os.environ/VAR` keys. */
  env?: Record<string, string>;
  /** Answer `POST /model/new` with the 500 of a gateway whose database does not keep models. */
  storeModelInDb?: boolean;
  /**
   * Whether the gateway has a database (default true). Without one it answers as the real one does:
   * `/model/new` and `/model/delete` 500 "No DB Connected…", spend logs 401 "Prisma Client is not
   * initialized", and any key but the master key 400 "No connected db.".
   */
  database?: boolean;
  /**
   * What the wildcard pattern adds to the model list, besides the configured names and a literal `*` (the real
   * gateway: its registry of the compatible family, 200 or more `compat/<model>` names).
   */
  wildcardRegistry?: string[];
  /** Spend recorded per successful call. Default 0.001. */
  spendPerCall?: number;
}

interface ConfigEntry {
  model_name: string;
  gateway_params: { model: string; api_base: string; api_key: string };
}

/** State of a mock built-in gateway: its model list, settings, environment and spend logs. */
export class GatewayStore {
  models: StoredGatewayModel[] = [];
  spendLogs: StoredSpendRow[] = [];
  forwardClientHeaders = false;
  storeModelInDb: boolean;
  database: boolean;
  env: Record<string, string>;
  wildcardRegistry: string[];
  spendPerCall: number;
  readonly #config: GatewayStoreInit['config'];

  constructor(init: GatewayStoreInit = {}) {
    this.#config = init.config;
    this.env = { ...init.env };
    this.storeModelInDb = init.storeModelInDb ?? true;
    this.database = init.database ?? true;
    this.wildcardRegistry =
      init.wildcardRegistry ??
      Array.from({ length: 210 }, (_, i) => `compat/registry-model-${String(i + 1).padStart(3, '0')}`);
    this.spendPerCall = init.spendPerCall ?? 0.001;
    this.restart();
  }

  /**
   * A pod restart: the configuration is loaded again; models added through the API are kept, since they live in
   * the gateway's database (docs/compatibility.md, G1: the real gateway with its database persists them).
   */
  restart(): void {
    const stored = this.models.filter((model) => model.db_model);
    this.models = [
      ...(this.#config?.model_list ?? []).map((entry) => ({
        id: crypto.randomUUID(),
        model_name: entry.model_name,
        gateway_params: { ...entry.gateway_params },
        db_model: false,
      })),
      ...stored,
    ];
    this.forwardClientHeaders = this.#config?.general_settings?.forward_client_headers_to_llm_api === true;
  }

  /** A new gateway with an empty database: the configured models only, no spend rows. */
  reset(): void {
    this.models = [];
    this.spendLogs = [];
    this.restart();
  }

  addModel(entry: ConfigEntry): StoredGatewayModel {
    const stored = {
      id: crypto.randomUUID(),
      ...entry,
      gateway_params: { ...entry.gateway_params },
      db_model: true,
    };
    this.models.push(stored);
    return stored;
  }

  /**
   * `PATCH /model/{id}/update`: the fields given replace the stored ones (`gateway_params` and `model_info` key
   * by key), a database model only. Undefined for an unknown id, `'config'` for a configured model.
   */
  updateModel(
    id: string,
    update: {
      model_name?: string;
      gateway_params?: Partial<StoredGatewayModel['gateway_params']>;
      model_info?: Record<string, unknown>;
    },
  ): StoredGatewayModel | 'config' | undefined {
    const model = this.models.find((m) => m.id === id);
    if (!model) return undefined;
    if (!model.db_model) return 'config';
    if (update.model_name !== undefined) model.model_name = update.model_name;
    model.gateway_params = { ...model.gateway_params, ...update.gateway_params };
    if (update.model_info) model.model_info = { ...model.model_info, ...update.model_info };
    return model;
  }

  deleteModel(id: string): boolean {
    const index = this.models.findIndex((m) => m.id === id && m.db_model);
    if (index < 0) return false;
    this.models.splice(index, 1);
    return true;
  }

  findByName(name: string): StoredGatewayModel | undefined {
    return this.models.find((m) => m.model_name === name);
  }

  wildcard(): StoredGatewayModel | undefined {
    return this.models.find((m) => m.model_name === '*');
  }

  /** `os.environ/VAR` read from `env`, as the gateway reads its pod environment. */
  resolveKey(apiKey: string): string | undefined {
    return apiKey.startsWith('os.environ/') ? this.env[apiKey.slice('os.environ/'.length)] : apiKey;
  }
}
