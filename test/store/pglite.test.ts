import { initdbEachMemoryStore } from '../support/memory-store-template.js';
import { storeContract } from './store-contract.js';

// "Applies every migration to an empty database": a new cluster, migrated by openStore, not the run's template.
initdbEachMemoryStore();
storeContract('pglite');
