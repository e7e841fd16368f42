import { type Database, migrateDatabase, openDatabase, startCheckpointer } from "../db/client";
import { recordRelease } from "../db/version";
import { seedTicketStates } from "../db/seed/states";
import { seedDemo } from "./modules/system/demo";
import { createApp } from "./http/app";
import { boxHostNames, hostGuard } from "./http/hostGuard";
import { pruneIdempotencyKeys } from "./http/idempotency";
import { buildOpenApi } from "./http/openapi";
import type { EmployeeCaller, RouteDef } from "./http/route";
import type { Sender } from "./modules/printing/journal";
import { agentRoutes } from "./modules/agents/routes";
import { createAgentService } from "./modules/agents/service";
import { authRoutes } from "./modules/auth/routes";
import { createActionService } from "./modules/catalogue/actions";
import { createGarmentService } from "./modules/catalogue/garments";
import { createModifierService } from "./modules/catalogue/modifiers";
import { priceListPdf } from "./modules/catalogue/priceList";
import { createPriceService } from "./modules/catalogue/prices";
import { catalogueRoutes } from "./modules/catalogue/routes";
import { getBoxSecret } from "./modules/auth/secrets";
import { createAuthService } from "./modules/auth/service";
import { createSetupGate } from "./modules/auth/setupCode";
import { customerRoutes } from "./modules/customers/routes";
import { customerReads } from "./modules/customers/reads";
import { createCustomerService } from "./modules/customers/service";
import { employeeRoutes } from "./modules/employees/routes";
import { createEmployeeService } from "./modules/employees/service";
import { imageRoutes } from "./modules/images/routes";
import { createImageService } from "./modules/images/service";
import { createStorageRules } from "./modules/images/storage";
import { placeRoutes } from "./modules/places/routes";
import { createPlaceService } from "./modules/places/service";
import { createPrintJournal } from "./modules/printing/journal";
import { createPrintService } from "./modules/printing/service";
import { discoverPrinters } from "../drivers/printers/discovery";
import { deviceAccess } from "../drivers/devices";
import { printingRoutes, printJournalRoutes } from "./modules/printing/routes";
import { receiptData } from "./modules/printing/ticketPdf";
import { scannerRoutes } from "./modules/scanners/routes";
import { createScannerService, type DriverFactory } from "./modules/scanners/service";
import { systemRoutes } from "./modules/system/routes";
import { checkPresetChannels, createChannels } from "../drivers/messaging";
import { messagingRoutes } from "./modules/messaging/routes";
import { createMessagingService, type MessagingService } from "./modules/messaging/service";
import { hqLinkRoutes } from "./modules/hqlink/routes";
import { createHqLinkService } from "./modules/hqlink/service";
import { lanRoutes } from "./modules/lan/routes";
import { createLanService } from "./modules/lan/service";
import { boxHealthRoutes } from "./modules/boxhealth/routes";
import { createBoxHealthService } from "./modules/boxhealth/service";
import { createNightlyBackups } from "./modules/boxhealth/backups";
import { createTimeZoneSetting, ENV_TIME_ZONE } from "./modules/boxhealth/timeZone";
import { readCertificateInfo } from "./platform/tls";
import type { BoxEvent, BoxEventBus as EventBus } from "./modules/events/model";
import { createEventBus } from "./platform/events";
import { createLifecycle } from "./platform/lifecycle";
import { createItemService } from "./modules/tickets/items";
import { createSignatureStore } from "./modules/tickets/signatures";
import { trackingRoutes, whereaboutsRoutes } from "./modules/tracking/routes";
import { createWhereaboutsService } from "./modules/tracking/whereabouts";
import { createTrackingService } from "./modules/tracking/service";
import { addDays, businessDay } from "./domain/dates";
import { ticketRoutes } from "./modules/tickets/routes";
import { createTicketService } from "./modules/tickets/service";
import { repairOverflowedMoney } from "./modules/tickets/totals";
import { approvalRoutes } from "./modules/approval/routes";
import { schedulingRoutes } from "./modules/scheduling/routes";
import { reportRoutes } from "./modules/reports/routes";
import { importRoutes } from "./modules/import/routes";
import { createImportService } from "./modules/import/service";
import { referenceRoutes } from "./modules/reference/routes";
import { appliedReferenceVersion, createReferenceService } from "./modules/reference/service";
import { createSiteTokens } from "./modules/reference/siteTokens";
import { type Bookings, createBookings } from "./modules/bookings/wire";
import { bookingRoutes } from "./modules/bookings/routes";
import { chainRoutes } from "./modules/chain/routes";
import { createChainService } from "./modules/chain/service";
import { createReportService } from "./modules/reports/service";
import { createSchedulingService } from "./modules/scheduling/service";
import { createApprovalService } from "./modules/approval/service";
import { paymentRoutes } from "./modules/money/routes";
import { createBooks } from "./modules/accounts/books";
import { createInvoiceService } from "./modules/accounts/invoices";
import { accountRoutes } from "./modules/accounts/routes";
import { createInvoiceSender } from "./modules/accounts/send";
import { createAccountService } from "./modules/accounts/service";
import { agentReads } from "./modules/agents/reads";
import { depositRoutes } from "./modules/money/depositRoutes";
import { booksRoutes } from "./modules/books/routes";
import { createAccountReports } from "./modules/accounts/reports";
import { createBooksService } from "./modules/books/service";
import { createDepositService } from "./modules/money/deposits";
import { createTransferApply, DEPOSIT_TRANSFER_KIND } from "./modules/money/transferApply";
import { phoneSpellings } from "./modules/public/otp";
import { createTransferService } from "./modules/money/transfers";
import { createPaymentService } from "./modules/money/service";
import { createPublicApp, PUBLIC_API } from "./http/publicApp";
import { createStatusLinks } from "./modules/public/links";
import { publicRoutes } from "./modules/public/routes";
import { createPublicService } from "./modules/public/service";
import { statusLinkRoutes } from "./modules/public/staffRoutes";
import { type Clock, systemClock } from "./platform/clock";
import type { Config } from "./platform/config";

export interface Appliance {
  app: ReturnType<typeof createApp>;
  /** Issue 35: the public face's own app (served on IRONBOX_PUBLIC_PORT) and its routes. */
  publicApp: ReturnType<typeof createPublicApp>;
  publicRoutes: { api: readonly RouteDef[]; pages: readonly RouteDef[] };
  /** The public face's service (tests mount it with limits of their own). */
  publicService: ReturnType<typeof createPublicService>;
  /** Status links (tests mint one to see the address it is on). */
  statusLinks: ReturnType<typeof createStatusLinks>;
  bus: EventBus;
  journal: ReturnType<typeof createPrintJournal>;
  /** The outbox and its sender (tests step it: messaging.sender.pause() / tick()). */
  messaging: MessagingService;
  /** Issue 35: bookings from HQ (tests feed envelopes to apply, step the poll, or route at HQ). */
  bookings: Bookings;
  /** Stops background work (gun readers, the link to HQ) before the database closes: await it. */
  stop(): Promise<void>;
  database: Database;
  routes: readonly RouteDef[];
  clock: Clock;
}

/**
 * Composes the appliance: database (migrated), services with their explicit dependencies,
 * and the HTTP app. main.ts serves it; tests call `app.handle(request)` on it directly.
 */
export async function bootAppliance(
  config: Config,
  opts: {
    clock?: Clock;
    log?: (m: string, e?: unknown) => void;
    scannerDrivers?: DriverFactory;
    printSender?: Sender;
    hqLink?: boolean;
    /** The link watchdog's patience (tests idle a real Litestream past it). */
    linkStallMs?: number;
    /** IRONBOX_TIME_ZONE as the process started (tests set it); null: not set. */
    envTimeZone?: string | null;
    /** Where a backup folder may be: the mounted disks (domain/disks.ts); tests name a stand-in mount point. */
    diskRoots?: readonly string[];
  } = {},
): Promise<Appliance> {
  const clock = opts.clock ?? systemClock;
  const devices = deviceAccess(config.devices);
  // The environment's channel presets, checked by the channels' own rules before anything starts.
  const presets = checkPresetChannels(config.messaging, devices);
  const database = await openDatabase(config.databaseUrl, config.databaseAuthToken);
  // Pending migrations on a database with data: a copy first (<data dir>/backups), then all in one transaction.
  const migrated = await migrateDatabase(database, { backup: { version: config.version, now: clock.now() } });
  if (migrated.backup)
    (opts.log ?? console.log)(`Ironbox ${config.version}: copied the database to ${migrated.backup.file} before ${migrated.applied} migration(s)`);
  // The database says which release wrote it (HQ reads a site copy's version before its SQL).
  await recordRelease(database.client, config.version);
  const { db } = database;
  // The spec's ticket states, unless the states are HQ's (a snapshot was applied here).
  if (!(await appliedReferenceVersion(db))) await seedTicketStates(db);
  await repairOverflowedMoney(db, clock.now());
  await pruneIdempotencyKeys(db, clock.now());
  const secret = await getBoxSecret(db);

  const auth = createAuthService({ db, clock, secret });
  if (config.admin && (await auth.setupRequired())) {
    await auth.createFirstAdmin({
      agent_name: "Head Quarters",
      user_name: config.admin.user,
      password: config.admin.password,
      full_name: "Administrator",
      pin: config.admin.pin,
    });
  }
  if (config.demo) await seedDemo(db, clock);
  const setup = createSetupGate({ dataDir: config.dataDir, clock, log: opts.log ?? console.log });
  if (await auth.setupRequired()) setup.issue();

  const places = createPlaceService({ db, clock });
  const agents = createAgentService({ db, clock, auth, places });
  const employees = createEmployeeService({ db, clock, auth });
  const catalogue = {
    actions: createActionService({ db, clock }),
    garments: createGarmentService({ db, clock }),
    modifiers: createModifierService({ db, clock }),
    prices: createPriceService({ db, clock }),
    priceList: (stamp: { agent: string; employee: string }) => priceListPdf(db, clock, stamp),
  };

  const approvals = createApprovalService({ db, clock, verifyApproverPin: auth.verifyApproverPin });
  const scheduling = createSchedulingService({ db, clock });
  // Images and signatures share a shop's storage quota and the free-space floor; each counts its own.
  const storageRules = createStorageRules({ dataDir: config.dataDir, limits: config.uploads });
  const signatures = createSignatureStore({ db, rules: storageRules, otherBytes: (agentId) => images.bytes(agentId) });
  const tickets = createTicketService({ db, clock, approvals, places, scheduling, signatures });
  const bus = createEventBus<BoxEvent>();
  const items = createItemService({ db, clock, approvals, signatures });
  // The hardware printers and guns may use: device paths under the device root, LAN printers.
  const discover = () => discoverPrinters(devices.roots);
  const log = opts.log ?? console.error;
  const journal = createPrintJournal({ db, clock, bus, devices, log, discover, ...(opts.printSender ? { send: opts.printSender } : {}) });
  const payments = createPaymentService({ db, clock, approvals });
  // Receipts list the ticket's payments and refunds, as the payments module reads them (issue 24).
  const receipt = (caller: EmployeeCaller, id: number, itemIds?: number[], opts?: { confirming?: boolean }) =>
    receiptData({ db, clock, tickets, places, payments: (c, ticket) => payments.list(c, { ticket }) }, caller, id, itemIds, opts);
  const printing = createPrintService({ journal, tickets, items, clock, receipt, discover, till: payments.tillDay });
  const scanners = createScannerService({ db, clock, bus, devices, log, drivers: opts.scannerDrivers });
  // Nightly backups of a local database: the data disk, and a second disk when one is set.
  const backups = database.file
    ? createNightlyBackups({ db, clock, dbFile: database.file, version: config.version, envDir: config.backupDir, log, diskRoots: opts.diskRoots })
    : undefined;
  // The shop's time zone saved on "The box" (issue 25), applied before anything counts days.
  const timeZone = createTimeZoneSetting({ db, clock, envZone: opts.envTimeZone === undefined ? ENV_TIME_ZONE : opts.envTimeZone });
  await timeZone.load();
  const boxHealth = createBoxHealthService({
    backups,
    db,
    clock,
    log,
    version: config.version,
    dataDir: config.dataDir,
    dbFile: database.file,
    printers: () => printing.devices(),
    printerOutcomes: () => journal.lastOutcomes(),
    guns: () => scanners.health(),
    certificate: () => readCertificateInfo(config.dataDir),
    // The same state as /health's `link` (hqLink is made below; read on each request).
    link: () => hqLink.health(),
  });
  // The outbox: requests queue messages; its sender sends them through the channels of the settings (or env presets).
  // Issue 35: status links (hashed tokens) that status and automatic messages carry when the public address is set.
  const statusLinks = createStatusLinks({ db, clock, publicUrl: config.publicFace.url, fallbackUrl: () => reference.publicUrl() });
  const messaging = createMessagingService({
    db,
    clock,
    bus,
    devices,
    log,
    presets,
    makeChannels: (s) => createChannels(s, { devices }),
    // An invoice's PDF is made when its e-mail is sent (issue 34); the sender only calls this later.
    attachments: (ref) => invoiceSender.attachment(ref),
    links: statusLinks,
    webhookSecret: config.smsWebhookSecret,
  });
  // Business accounts, invoices and their books (issue 34).
  const accounts = createAccountService({ db, clock });
  const invoices = createInvoiceService({ db, clock, messageStatus: messaging.statusOf });
  const invoiceSender = createInvoiceSender({ db, clock, invoices, mailer: messaging, shops: agentReads(db) });
  const images = createImageService({ db, clock, dataDir: config.dataDir, limits: config.uploads, otherBytes: (agentId) => signatures.bytes(agentId) });

  const reports = createReportService({ db: { url: config.databaseUrl, authToken: config.databaseAuthToken }, clock });
  // HQ mode (issue 15): the sites' read-only copies; on a shop's box the chain routes answer 409.
  const chain = createChainService({ hq: config.hq, dataDir: config.dataDir, clock, reports, log });

  // HQ-owned reference data: published by HQ's box, fetched and applied by an enrolled shop's.
  const { hqUrl, publicKey, token, syncEveryMs } = config.reference;
  const reference = createReferenceService({
    db,
    clock,
    dataDir: config.dataDir,
    mode: config.mode,
    enrolment: config.mode === "shop" && hqUrl && publicKey && token ? { url: hqUrl, publicKey, token } : null,
    peerToken: config.mode === "hq" ? token : null,
    tokenGate: auth.checkPeerToken,
    syncEveryMs,
    publicUrl: config.publicFace.url,
    log,
  });
  await reference.loadPublicUrl();
  // Issue 35: a site's own token for what HQ sends that site alone (derived from HQ's box secret).
  const siteTokens = createSiteTokens({
    db,
    clock,
    secret: config.mode === "hq" ? secret : null,
    peerToken: config.mode === "hq" ? token : null,
    tokenGate: auth.checkPeerToken,
  });

  // The link to HQ: Litestream streams this database to HQ's storage (off until a replica URL is set).
  const hqLink = createHqLinkService({ db, clock, config, log, stallMs: opts.linkStallMs });

  // The screen's import and the export run in child processes, ended by the lifecycle (issue 32).
  const imports = createImportService({
    db,
    clock,
    databaseUrl: config.databaseUrl,
    databaseAuthToken: config.databaseAuthToken,
    databaseFile: database.file ?? null,
    dataDir: config.dataDir,
    allowLoopback: config.importAllowLoopback,
  });

  // Issue 35: the public face (status links, online pickups), served apart from the staff API.
  const publicService = createPublicService({ db, clock, links: statusLinks, scheduling, messaging, siteCopies: () => chain.readableCopies(), log });
  const publicFace = publicRoutes(publicService);

  // Issue 35: online bookings down to the shop (signed by HQ, applied once here) and the shop's list.
  const customersService = createCustomerService({ db, clock, places, approvals });
  // The downlink carries this site's bookings: it asks with the site's own token (the chain-wide one is refused there).
  const siteToken = config.reference.siteToken;
  const enrolment = hqUrl && publicKey && token ? { url: hqUrl, publicKey, token: siteToken ?? token } : null;
  const bookingServices = { customers: customersService, places, tickets, scheduling, messaging };
  // Deposit transfers (issue 34) ride the bookings' signed downlink as a second kind of envelope.
  const transferApply = createTransferApply({
    db,
    clock,
    customerFor: async (p) => (await customerReads(db).byMobiles(phoneSpellings(p.mobile)?.spellings ?? [p.mobile]))[0]?.id ?? null,
    createCustomer: (p) => bookings.apply.newCustomer(p.agent_id, p.full_name, p.mobile),
  });
  const bookings = createBookings({
    db,
    clock,
    ...config,
    enrolment,
    services: bookingServices,
    copies: () => chain.readableCopies(),
    log,
    kinds: { [DEPOSIT_TRANSFER_KIND]: (p) => transferApply.apply(p) },
  });

  const routes: RouteDef[] = [];
  routes.push(
    ...systemRoutes({
      db,
      auth,
      setup,
      version: config.version,
      mode: config.mode,
      openapi: () => buildOpenApi(routes, config.version, { prefix: PUBLIC_API, routes: publicFace.api }),
      link: hqLink.health,
    }),
    ...hqLinkRoutes(hqLink),
    ...authRoutes(auth),
    ...agentRoutes(agents),
    ...employeeRoutes(employees),
    ...catalogueRoutes(catalogue),
    ...placeRoutes(places),
    ...customerRoutes(customersService),
    ...ticketRoutes(tickets, items),
    ...paymentRoutes(payments),
    ...accountRoutes({
      accounts,
      invoices,
      books: createBooks({ db, clock }),
      reports: createAccountReports({
        db,
        clock,
        target: { url: config.databaseUrl, authToken: config.databaseAuthToken },
        siteCopies: chain.enabled() ? chain.copiesOf : undefined,
      }),
      sender: invoiceSender,
      shops: agentReads(db),
      clock,
    }),
    ...depositRoutes(createDepositService({ db, clock, approvals }), createTransferService({ db, clock })),
    ...approvalRoutes(approvals),
    ...printingRoutes({ clock, receipt }),
    ...printJournalRoutes(journal, printing),
    ...scannerRoutes(scanners, bus, {
      // The same lookup as every request (revoked, expired, disabled), for the same session.
      sessionLive: (authorization, jti) =>
        auth.authenticate(authorization, { activity: false }).then(
          (c) => c.kind !== "none" && c.jti === jti,
          () => false,
        ),
      recheckMs: config.eventsRecheckMs,
    }),
    ...trackingRoutes(
      createTrackingService({ db, clock }),
      () => businessDay(clock.now()),
      () => addDays(businessDay(clock.now()), -7),
    ),
    ...whereaboutsRoutes(createWhereaboutsService({ db, clock })),
    ...imageRoutes(images),
    ...messagingRoutes(messaging),
    ...lanRoutes(createLanService({ dataDir: config.dataDir, site: config.site, httpPort: config.port, httpsPort: config.https?.port ?? null })),
    ...boxHealthRoutes(boxHealth, backups, timeZone),
    ...schedulingRoutes(scheduling),
    // Reports run in processes of their own with a read-only connection to the same database.
    ...referenceRoutes(reference, siteTokens),
    ...reportRoutes(reports),
    ...booksRoutes(
      createBooksService({
        db,
        clock,
        target: { url: config.databaseUrl, authToken: config.databaseAuthToken },
        siteCopies: chain.enabled() ? chain.copiesOf : undefined,
      }),
    ),
    ...chainRoutes(chain, clock),
    // Moving in and leaving (issue 26); loopback sources only where tests ask for them.
    ...importRoutes(imports),
    ...statusLinkRoutes(statusLinks),
    ...bookingRoutes(bookings.service, { hq: bookings.downlinkHq, checkPeer: siteTokens.check, transfers: bookings.transfersHq }),
  );
  const hosts = boxHostNames({ site: config.site, allowedHosts: config.allowedHosts, hqUrl: config.reference.hqUrl });
  const app = createApp({ db, clock, auth, routes, uiDir: config.uiDir, log: opts.log, managed: reference.managed, hostGuard: hostGuard(hosts) });
  // The public face answers to the box's own names and to the public address's host.
  const publicHost = config.publicFace.url ? [new URL(config.publicFace.url).hostname] : [];
  const publicApp = createPublicApp({ db, clock, api: publicFace.api, pages: publicFace.pages, hostGuard: hostGuard([...hosts, ...publicHost]), log });
  // Background services, started in this order and stopped in reverse (platform/lifecycle.ts).
  const services = createLifecycle(log);
  // The link first, so it stops last: Litestream ships what it has on SIGTERM, and the database
  // stays open until it has (at most 3 s). Stopped even when not started here (a test may
  // start it by saving the link's settings).
  services.add("hqlink", async () => {
    if (opts.hqLink !== false) await hqLink.start();
    return () => hqLink.stop();
  });
  // WAL checkpoints when the box is quiet, not inside a counter request (db/client.ts).
  // While Litestream runs it checkpoints (a restart of the WAL behind its back would force a new generation).
  services.add("checkpointer", () => startCheckpointer(database, { log: opts.log, paused: hqLink.controlsCheckpoints }));
  services.add("scanners", async () => {
    await scanners.start();
    return () => scanners.stop();
  });
  services.add("print journal recovery", () => journal.recover());
  // Rows a stopped box left `sending` are settled (asked about, or flagged) before sending goes on; not awaited: a phone that does not answer must not hold up boot.
  services.add("messaging sender", () => {
    void messaging.sender.start().catch((e) => log("messaging: the sender did not start", e));
    return () => messaging.sender.stop();
  });
  // Uploads nothing references are removed a day on: a sweep now (in the background) and daily.
  services.add("image sweeper", () => images.startSweeper(opts.log));
  // An enrolled shop looks for HQ's newest reference data now and every few minutes, in the background.
  services.add("reference sync", () => reference.start());
  // And asks HQ for online bookings every half minute (a booking is on the run within a minute).
  services.add("bookings downlink", () => bookings.downlinkShop.start());
  services.add("chain restores", () => (chain.enabled() ? chain.start() : undefined));
  // The database check, in a process of its own: a few minutes after boot, then daily.
  services.add("database checks", () => boxHealth.startChecks());
  // The nightly backup: a first look a few minutes after boot (a box with none takes one then).
  services.add("nightly backups", () => backups?.start());
  // Last, so stopped first: an import's child ends its batch and an export's child is killed
  // (its copy removed) while the database and the checkpointer are still there.
  services.add("import and export", () => () => imports.stop());
  await services.start();
  return {
    app,
    publicApp,
    publicRoutes: publicFace,
    publicService,
    statusLinks,
    database,
    routes,
    clock,
    bus,
    journal,
    messaging,
    bookings,
    stop: services.stop,
  };
}
