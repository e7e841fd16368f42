import { useEffect, useState } from "react";
import { fetchList, loadFailure } from "../../lib/api";
import { useLocation } from "wouter";
import type { Action, Category, Modifier } from "../../../appliance/modules/catalogue/model";
import type { CustomerDetail } from "../../../appliance/modules/customers/model";
import type { Item, Ticket, TicketOptions } from "../../../appliance/modules/tickets/model";
import { withApproval } from "../../components/approval";
import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import { ApiError } from "../../lib/api";
import { uploadImage } from "../../lib/upload";
import {
  addItemAction,
  addItemModifier,
  addItems,
  confirmTicket,
  getCustomer,
  getTicket,
  lastOpenTicket,
  openTicket,
  putItem,
  removeItem,
  removeItemAction,
  removeItemModifier,
  setTicketDate,
  setTicketOptions,
} from "./api";
import { askTicketDiscount } from "./discount";

/**
 * The counter's state and every change it makes (spec §4, §5, §9): the ticket being written,
 * the catalogue it is written from, the selected item, and an action waiting for its photo.
 * Each change goes to the box and then reloads the ticket, so the screen shows the box's prices.
 * `ticketParam` 0 resumes the customer's open ticket or opens one.
 */
export function useCounter(customerId: number, ticketParam: number) {
  const [, navigate] = useLocation();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [customer, setCustomer] = useState<CustomerDetail | null>(null);
  const [categories, setCategories] = useState<Category[]>([]);
  const [actions, setActions] = useState<Action[]>([]);
  const [modifiers, setModifiers] = useState<Modifier[]>([]);
  // The catalogue failing to load shows "Could not load" over the picker, not an empty picker.
  const [catalogueError, setCatalogueError] = useState<string | null>(null);
  const loadCatalogue = () =>
    Promise.all([
      fetchList<Category>("/garmentCategories/").then(setCategories),
      fetchList<Action>("/actions/").then(setActions),
      fetchList<Modifier>("/modifiers/").then(setModifiers),
    ]).then(
      () => setCatalogueError(null),
      (e) => setCatalogueError(loadFailure(e)),
    );
  const [selectedId, setSelectedId] = useState<number | null>(null);
  /** The item whose labels the printer dialog prints (the phone's swipe option). */
  const [printItem, setPrintItem] = useState<number | null>(null);
  // An action that needs a photo waits here for one, or for an explicit "without photo".
  const [photoFor, setPhotoFor] = useState<Action | null>(null);
  // While a change is on its way the action and modifier buttons wait, so a quick second tap
  // cannot land on the previously selected item.
  const [busy, setBusy] = useState(false);
  const busyWhile = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    getCustomer(customerId)
      .then(setCustomer)
      .catch(() => {});
    void loadCatalogue();
  }, [customerId]);

  // Resume the customer's open ticket, or open a new one (404 or 400 mean "none", spec §8).
  useEffect(() => {
    (async () => {
      if (ticketParam) return setTicket(await getTicket(ticketParam));
      let t: Ticket;
      try {
        t = await lastOpenTicket(customerId);
      } catch (e) {
        if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 400)) return toast(e instanceof Error ? e.message : "Something went wrong", "danger");
        t = await openTicket(customerId);
      }
      setTicket(t);
      navigate(`/customers/${customerId}/new-ticket/${t.id}`, { replace: true });
    })().catch(() => {});
  }, [customerId, ticketParam]);

  const items = ticket?.ticket_sub_categories ?? [];
  const selected = items.find((i) => i.id === selectedId) ?? null;
  const reload = async () => setTicket(await getTicket(ticket!.id));

  /** Adds `copies` of a garment and selects the last one made. */
  const addGarment = (garmentId: number, copies: number) =>
    busyWhile(async () => {
      if (!ticket) return;
      const made = await addItems(ticket.id, garmentId, copies).catch(() => null);
      if (!made) return;
      setSelectedId(made[made.length - 1]!.id);
      await reload();
    });

  const toggleAction = (a: Action) =>
    busyWhile(async () => {
      if (!selected) return toast("Select a garment first", "warning");
      const row = selected.actions.find((x) => x.actionID === a.id);
      if (row) await removeItemAction(row.id).catch(() => null);
      else if (a.images_required) return setPhotoFor(a);
      else await addItemAction(selected.id, a.id).catch(() => null);
      await reload();
    });

  /** The photo prompt's answer: a file to upload, or null for "add without photo". */
  async function addWithPhoto(file: File | null) {
    const a = photoFor;
    setPhotoFor(null);
    if (!a || !selected) return;
    const img = file ? await uploadImage(file) : null;
    if (file && !img) return;
    await addItemAction(selected.id, a.id, { images: img ? [img.id] : [], override_images: !img }).catch(() => null);
    await reload();
  }
  const cancelPhoto = () => (setPhotoFor(null), toast("Need to select image!", "warning"));

  const toggleModifier = (m: Modifier) =>
    busyWhile(async () => {
      if (!selected) return toast("Select a garment first", "warning");
      const row = selected.modifiers.find((x) => x.modifier_id === m.id);
      if (row) await removeItemModifier(row.id).catch(() => null);
      else await addItemModifier(selected.id, m.id).catch(() => null);
      await reload();
    });

  async function editComment(i: Item) {
    const v = window.prompt("Comments", i.comments);
    if (v === null || v === i.comments) return;
    await putItem(i.id, { comments: v }).catch(() => null);
    await reload();
  }
  async function deleteItem(i: Item) {
    if (!(await confirmDialog({ message: `Remove ${i.sub_category?.name ?? "this item"} from the ticket?` }))) return;
    await withApproval(removeItem(i.id));
    if (selectedId === i.id) setSelectedId(null);
    await reload();
  }
  /** The item editor removed the selected item itself. */
  const itemDeleted = () => (setSelectedId(null), reload());

  /**
   * A pickup or delivery day, and the pickup/delivery options. The box decides whether a van
   * stop lands on a full day; then a manager types their PIN. A failure or a cancelled approval
   * shows the ticket as the box has it again.
   */
  const afterChange = async (changed: Ticket | null) => (changed ? setTicket(changed) : reload());
  const setDate = async (which: "pickup" | "delivery", date: string) => afterChange(await withApproval(setTicketDate(ticket!.id, which, date)));
  const setOptions = async (options: TicketOptions) => afterChange(await withApproval(setTicketOptions(ticket!.id, options)));

  async function setDiscount() {
    const changed = ticket && (await askTicketDiscount(ticket));
    if (changed) setTicket(changed);
  }

  async function confirm() {
    if (!ticket || items.length === 0) return toast("Ticket is empty", "warning");
    try {
      await confirmTicket(ticket.id);
      toast("Ticket confirmed");
      navigate(`/tickets/${ticket.id}`);
    } catch {
      // Spec §8: a failed confirmation returns false silently; the ticket stays open here.
    }
  }
  // Spec §2: printing confirms the ticket, then returns to the customer screen.
  const printed = () => navigate(`/customers/${customerId}`);
  const itemPrinted = () => (setPrintItem(null), void reload());

  return {
    catalogueError,
    loadCatalogue,
    ticket,
    customer,
    categories,
    actions,
    modifiers,
    items,
    selected,
    select: setSelectedId,
    busy,
    photoFor,
    printItem,
    setPrintItem,
    reload,
    addGarment,
    toggleAction,
    addWithPhoto,
    cancelPhoto,
    toggleModifier,
    editComment,
    deleteItem,
    itemDeleted,
    setDate,
    setOptions,
    setDiscount,
    confirm,
    printed,
    itemPrinted,
  };
}
