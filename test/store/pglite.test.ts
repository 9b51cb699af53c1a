import { storeContract } from './store-contract.js';

storeContract('pglite');
